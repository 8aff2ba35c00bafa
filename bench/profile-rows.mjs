#!/usr/bin/env node
// Profiles two decide rows in ONE service process (so a difference between them is the row's, not
// the process's): `switchyard serve` with `--cpu-prof`, a plain SR merchant and a second merchant
// with ROW's setting (volume: decide-bench's volume commitment with a published plan; sticky: the
// feature on and CUSTOMERS (200) customers' habits seeded; features: multi-objective and an A/B
// experiment), then plain, row, plain, row … (ROUNDS 2, SECONDS 5 each, CONNECTIONS 64) and prints
// each row's load windows (FROM_MS/TO_MS for bench/profile-summary.mjs) and requests, so a diff of
// the windows names what the row costs per request. 127.0.0.1 only.
import autocannon from 'autocannon';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { abTestRule } from './lib/ab-test-rule.mjs';
import { benchContract } from './lib/bench-contract.mjs';
import { decideMixBody } from './lib/decide-body.mjs';
import { json, spawnService } from './lib/spawn-service.mjs';

const dir = process.env.PROFILE_DIR ?? '/tmp/switchyard-profiles';
const row = process.env.ROW ?? 'volume';
const seconds = Number(process.env.SECONDS ?? 5);
const rounds = Number(process.env.ROUNDS ?? 2);
const connections = Number(process.env.CONNECTIONS ?? 64);
const customers = Number(process.env.CUSTOMERS ?? 200);
const adminSecret = 'bench-admin-secret-0123456789abcdef';
if (!['volume', 'sticky', 'features'].includes(row)) throw new Error(`ROW takes volume, sticky or features; got "${row}"`);
mkdirSync(dir, { recursive: true });
const started = Date.now();
process.env.SERVICE_NODE_FLAGS = `--cpu-prof --cpu-prof-dir=${dir} ${process.env.SERVICE_NODE_FLAGS ?? ''}`;
const service = await spawnService({ ADMIN_SECRET: adminSecret });
const withCustomer = (body, index) => ({ ...body, paymentInfo: { ...body.paymentInfo, customerId: `cust_${index % customers}` } });

async function merchant(name) {
  await json(service.url, '/merchant-account/create', { merchant_id: name }, { 'x-admin-secret': adminSecret });
  const session = await json(
    service.url,
    '/auth/signup',
    { email: `${name}@bench.example`, password: 'violet-harbour-lantern-42', merchant_id: name },
    { 'x-admin-secret': adminSecret },
  );
  const headers = { authorization: `Bearer ${session.token}` };
  await json(
    service.url,
    '/rule/create',
    { merchant_id: name, config: { type: 'successRate', data: { defaultBucketSize: 125, defaultHedgingPercent: 5 } } },
    headers,
  );
  return headers;
}

function run(name, headers, prefix, duration, customer) {
  let i = 0;
  return autocannon({
    url: `${service.url}/decide-gateway`,
    method: 'POST',
    connections,
    duration,
    headers: { 'content-type': 'application/json', ...headers },
    requests: [
      {
        setupRequest: (request) => {
          const index = i++;
          const body = decideMixBody(name, `${prefix}_${index}`, index);
          return { ...request, body: JSON.stringify(customer ? withCustomer(body, index) : body) };
        },
      },
    ],
  });
}

const windows = { plain: [], [row]: [] };
try {
  const stamp = Date.now();
  const plain = { name: `plain_${stamp}`, customer: false };
  plain.headers = await merchant(plain.name);
  const other = { name: `${row}_${stamp}`, customer: row === 'sticky' };
  other.headers = await merchant(other.name);
  const h = other.headers;
  if (row === 'volume') {
    await json(service.url, `/merchant-account/${other.name}/features/volume-contracts`, { enabled: true }, h);
    const contract = await json(
      service.url,
      '/routing/create',
      { name: 'bench-contract', created_by: other.name, algorithm: { type: 'volume_contract', data: benchContract } },
      h,
    );
    await json(service.url, '/routing/activate', { created_by: other.name, routing_algorithm_id: contract.rule_id }, h);
    const forecast = await json(service.url, `/volume-commitment/run-forecast?merchant_id=${other.name}`, {}, h);
    if (forecast.merchants[0]?.pspsSteering !== 1) throw new Error(`the forecast published no steering: ${JSON.stringify(forecast)}`);
  } else if (row === 'sticky') {
    await json(service.url, `/merchant-account/${other.name}/features/sticky-routing`, { enabled: true }, h);
    for (let index = 0; index < customers; index++) {
      await json(service.url, '/decide-gateway', withCustomer(decideMixBody(other.name, `seed_${index}`, index), index), h);
      await json(service.url, '/update-gateway-score', { merchantId: other.name, gateway: 'adyen', paymentId: `seed_${index}`, status: 'CHARGED' }, h);
    }
  } else {
    for (const feature of ['multi-objective-routing', 'ab-test-real-payments'])
      await json(service.url, `/merchant-account/${other.name}/features/${feature}`, { enabled: true }, h);
    const rows = [
      ['stripe', 290],
      ['adyen', 194],
      ['checkout', 150],
    ].map(([psp, bps]) => ({ psp, interchange_bps: bps, scheme_bps: 0, markup_bps: 0, fixed: 0, is_default: true }));
    await json(service.url, `/merchant-account/${other.name}/seed-costs`, { rows }, h, 'PUT');
    const experiment = await json(service.url, '/routing/create', abTestRule('profile-experiment', other.name, { hedging_percent: 2 }), h);
    await json(service.url, '/routing/activate', { created_by: other.name, routing_algorithm_id: experiment.rule_id }, h);
  }
  for (const target of [plain, other]) await run(target.name, target.headers, 'warm', 2, target.customer);
  for (let round = 0; round < rounds; round++) {
    for (const [key, target] of [
      ['plain', plain],
      [row, other],
    ]) {
      const from = Date.now() - started + 200;
      const result = await run(target.name, target.headers, `r${round}`, seconds, target.customer);
      windows[key].push({ from, to: Date.now() - started - 200, requests: result.requests.total, rps: Math.round(result.requests.average) });
    }
  }
} finally {
  await service.stop();
}
const written = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile') && f.includes(`.${service.pid}.0.`))
  .map((f) => join(dir, f))
  .filter((f) => statSync(f).mtimeMs >= started);
console.log(JSON.stringify({ profile: written[0], windows }));
