#!/usr/bin/env node
// Routing-rules (euclid) evaluation benchmark, in two parts over the same 50-rule advanced algorithm
// (mixed enum / number / comparison-array / str / metadata conditions, nested statements, priority
// and volume-split outputs):
//   1. in-process, one core: parsed and compiled once, then a rotating set of parameter maps is
//      evaluated for DURATION seconds (default 5) or MAX_EVALUATIONS (default 50,000,000), whichever
//      comes first;
//   2. over HTTP: `switchyard serve` (embedded) on 127.0.0.1, the algorithm created and activated
//      through /routing/create and /routing/activate, then POST /routing/evaluate at CONNECTIONS
//      (default 32) for HTTP_DURATION seconds (default 10) or MAX_REQUESTS (default 500,000),
//      whichever comes first. HTTP=0 skips this part.
// Each part prints one JSON line: evaluations/s plus the mix of outcomes (matched rule vs default).
// Needs the build output: `npm run build` (imports from dist/src/routing-rules, spawns dist/cli/main.js).
import autocannon from 'autocannon';
import { json, spawnService } from './lib/spawn-service.mjs';
import { compileRoutingAlgorithm } from '../dist/src/routing-rules/compile-routing-algorithm.js';
import { parseRoutingAlgorithm } from '../dist/src/routing-rules/parse-routing-algorithm.js';
import { validateEvaluationParameters } from '../dist/src/routing-rules/validate-evaluation-parameters.js';
import { mathRandom } from '../dist/src/decision/random-source.js';

const duration = Number(process.env.DURATION ?? 5);
const maxEvaluations = Number(process.env.MAX_EVALUATIONS ?? 50_000_000);
const RULES = 50;

const methods = ['card', 'wallet', 'pay_later', 'bank_redirect', 'upi'];
const networks = ['visa', 'mastercard', 'american_express', 'rupay', 'discover'];
const currencies = ['USD', 'EUR', 'INR', 'GBP', 'JPY'];
const gateways = ['stripe', 'adyen', 'checkout', 'braintree', 'razorpay', 'paytm'];
const gw = (i) => ({ gateway_name: gateways[i % gateways.length], gateway_id: `mca_${i % gateways.length}` });
const cond = (lhs, comparison, type, value) => ({ lhs, comparison, value: { type, value }, metadata: {} });

function ruleAt(i) {
  const statements = [
    {
      condition: [
        cond('payment_method', 'equal', 'enum_variant', methods[i % methods.length]),
        cond('amount', 'greater_than', 'number', (i * 97) % 5000),
        cond('currency', 'equal', 'enum_variant_array', [currencies[i % 5], currencies[(i + 2) % 5]]),
      ],
      nested: [
        { condition: [cond('card_network', 'equal', 'enum_variant', networks[i % networks.length])] },
        {
          condition: [
            cond('amount', 'equal', 'number_comparison_array', [
              { comparison_type: 'greater_than_equal', number: 1000 + i },
              { comparison_type: 'less_than', number: 9000 },
            ]),
            cond('metadata', 'equal', 'metadata_variant', { key: 'tier', value: i % 2 ? 'gold' : 'silver' }),
          ],
        },
      ],
    },
    { condition: [cond('card_bin', 'equal', 'str_value', String(400000 + i))] },
  ];
  const output =
    i % 3 === 0
      ? {
          routing_type: 'volume_split',
          output: {
            volume_split: [
              { split: 60, output: gw(i) },
              { split: 40, output: gw(i + 1) },
            ],
          },
        }
      : { routing_type: 'priority', output: { priority: [gw(i), gw(i + 2), gw(i + 4)] } };
  return { name: `rule_${i}`, ...output, statements };
}

const algorithm = {
  type: 'advanced',
  data: { globals: {}, default_selection: { priority: [gw(0), gw(1)] }, rules: Array.from({ length: RULES }, (_, i) => ruleAt(i)), metadata: null },
};
const parsed = parseRoutingAlgorithm(algorithm);
if (!parsed.ok) throw new Error(`bench algorithm rejected: ${parsed.errors.join('; ')}`);
const compiled = compileRoutingAlgorithm(parsed.algorithm);

// 1,024 parameter maps, validated once (as the route does per request), reused round-robin.
let seed = 12345;
const rand = (n) => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return seed % n;
};
const wireParameterSets = Array.from({ length: 1024 }, () => ({
  payment_method: { type: 'enum_variant', value: methods[rand(5)] },
  amount: { type: 'number', value: rand(10000) },
  currency: { type: 'enum_variant', value: currencies[rand(5)] },
  card_network: { type: 'enum_variant', value: networks[rand(5)] },
  card_bin: { type: 'str_value', value: String(400000 + rand(200)) },
  metadata: { type: 'metadata_variant', value: { key: 'tier', value: rand(2) ? 'gold' : 'silver' } },
}));
const parameterSets = wireParameterSets.map((wire) => {
  const checked = validateEvaluationParameters(wire);
  if (!checked.ok) throw new Error(checked.message);
  return checked.parameters;
});

let matched = 0;
let defaulted = 0;
const run = (iterations) => {
  for (let i = 0; i < iterations; i++) {
    const result = compiled.evaluate(parameterSets[i & 1023], mathRandom);
    if (!result.ok) throw new Error(result.error.message);
    if (result.evaluation.ruleName === null) defaulted++;
    else matched++;
  }
};

run(50_000); // warm-up (JIT)
matched = 0;
defaulted = 0;
const started = process.hrtime.bigint();
const deadline = started + BigInt(Math.round(duration * 1e9));
let evaluations = 0;
while (process.hrtime.bigint() < deadline && evaluations < maxEvaluations) {
  run(10_000);
  evaluations += 10_000;
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const perSecond = Math.round(evaluations / seconds);
console.log(
  JSON.stringify({
    benchmark: 'rules-evaluate-in-process',
    rules: RULES,
    seconds: Number(seconds.toFixed(2)),
    evaluations,
    evaluations_per_second: perSecond,
    microseconds_per_evaluation: Number((1e6 / perSecond).toFixed(3)),
    matched_rule_share: Number((matched / evaluations).toFixed(3)),
    default_selection_share: Number((defaulted / evaluations).toFixed(3)),
    target_per_second: 50_000,
  }),
);

if (process.env.HTTP !== '0') await benchOverHttp();

async function benchOverHttp() {
  const httpDuration = Number(process.env.HTTP_DURATION ?? 10);
  const connections = Number(process.env.CONNECTIONS ?? 32);
  const maxRequests = Number(process.env.MAX_REQUESTS ?? 500_000);
  const service = await spawnService();
  try {
    const merchant = `rules_bench_${Date.now()}`;
    const created = await json(service.url, '/merchant-account/create', { merchant_id: merchant }, { 'x-admin-secret': 'bench-admin-secret-0123456789abcdef' });
    const headers = { 'content-type': 'application/json', 'x-api-key': created.api_key };
    const rule = await json(service.url, '/routing/create', { name: 'bench-50', created_by: merchant, algorithm }, headers);
    await json(service.url, '/routing/activate', { created_by: merchant, routing_algorithm_id: rule.rule_id }, headers);
    const bodies = wireParameterSets.map((parameters, i) => JSON.stringify({ created_by: merchant, payment_id: `pay_${i}`, parameters }));
    let next = 0;
    // Bounded both ways: `duration` in time, `maxOverallRequests` in count.
    const load = (seconds, requests) =>
      autocannon({
        url: `${service.url}/routing/evaluate`,
        method: 'POST',
        connections,
        duration: seconds,
        maxOverallRequests: requests,
        headers,
        requests: [{ setupRequest: (request) => ({ ...request, body: bodies[next++ & 1023] }) }],
      });
    process.stderr.write(`warming up ${service.url}…\n`);
    await load(2, Math.max(1, Math.round(maxRequests / 5)));
    process.stderr.write(`measuring /routing/evaluate for ${httpDuration}s at ${connections} connections…\n`);
    const httpStarted = performance.now();
    const result = await load(httpDuration, maxRequests);
    const httpSeconds = (performance.now() - httpStarted) / 1000;
    console.log(
      JSON.stringify({
        benchmark: 'rules-evaluate-http',
        rules: RULES,
        seconds: Number(httpSeconds.toFixed(2)),
        connections,
        evaluations: result.requests.total,
        evaluations_per_second: Math.round(result.requests.total / httpSeconds),
        latency_ms: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
        errors: result.errors + result.non2xx,
        reference_per_second: 389,
      }),
    );
  } finally {
    await service.stop();
  }
}
