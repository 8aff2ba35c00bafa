#!/usr/bin/env node
// Counterfactual-evaluation study: does POST /analytics/counterfactual's estimate of a routing policy
// that never ran cover that policy's true value?
//
// For each of SEEDS seeds (default 40): three synthetic gateways with known success rates drifting as
// sine waves that cross each other, and known fees; N decisions (default 3000) logged under the
// logging policy (SR windows of 50, hedging 10 %, elimination 0.05) through the real decision rule;
// then each candidate configuration is estimated from those logs (IPS, self-normalised IPS, doubly
// robust; 95 % intervals; effective sample size) and compared with its true value on the same
// decisions (its exact action probabilities × the known success probabilities) and, for reference,
// with its own live run over the same drift ("live", which also moves its windows differently).
//
// Prints one table per metric: coverage of the 95 % interval (share of seeds whose interval holds the
// truth; ≥ 0.90 is the bar), bias and mean absolute error (estimate − truth), mean interval width,
// mean effective sample size, and how many seeds the estimate was supported in.
//
// Needs the build output: `npm run build` (imports from dist/src). SEEDS=… N=… for other sizes.
import { candidateProbabilities } from '../dist/src/analytics/counterfactual/candidate-policy.js';
import { evaluateCounterfactual } from '../dist/src/analytics/counterfactual/evaluate-counterfactual.js';
import { rescoreForBucket } from '../dist/src/analytics/counterfactual/rescore-windows.js';
import { pickIndex, propensityOf } from '../dist/src/decision/policy/decision-policy.js';
import { runStudy } from './lib/counterfactual-sim.mjs';

const seeds = Number(process.env.SEEDS ?? 40);
const n = Number(process.env.N ?? 3000);
if (!(Number.isInteger(seeds) && seeds >= 1 && Number.isInteger(n) && n >= 50)) throw new Error('SEEDS ≥ 1 and N ≥ 50, integers');

const logging = { bucketSize: 50, hedgingPercent: 10, eliminationThreshold: 0.05, multiObjective: false, margin: 1 };
const candidates = [
  { name: 'hedging 0 %', config: { ...logging, hedgingPercent: 0 } },
  { name: 'hedging 25 %', config: { ...logging, hedgingPercent: 25 } },
  { name: 'elimination 0.9', config: { ...logging, eliminationThreshold: 0.9 } },
  { name: 'multi-objective', config: { ...logging, multiObjective: true } },
  { name: 'bucket 200', config: { ...logging, bucketSize: 200 } },
];

const started = performance.now();
const summaries = runStudy({
  seeds,
  n,
  logging,
  candidates,
  lib: { pickIndex, propensityOf, evaluateCounterfactual, candidateProbabilities, rescoreForBucket },
});
const seconds = (performance.now() - started) / 1000;

const pct = (value) => (Number.isNaN(value) ? '   —' : `${(value * 100).toFixed(0).padStart(3)} %`);
const num = (value, digits = 4) => (Number.isNaN(value) ? '—' : value.toFixed(digits));
console.log(`counterfactual study: ${seeds} seeds × ${n} decisions, logging policy hedging 10 %, bucket 50, elimination 0.05 (${seconds.toFixed(1)} s)\n`);
console.log('success rate');
console.log(
  '| candidate | supported | true SR | live SR | logged SR | DR coverage | IPS coverage | SNIPS coverage | DR bias | DR mean abs err | DR CI width | ESS |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const s of summaries) {
  const dr = s.success.doublyRobust;
  console.log(
    `| ${s.name} | ${s.supportedSeeds}/${s.seeds}${s.reasons.length ? ` (${s.reasons.join(', ')})` : ''} | ${num(s.truthSuccessRate)} | ${num(s.liveSuccessRate)} | ${num(s.loggedSuccessRate)} | ${pct(dr.coverage)} | ${pct(s.success.ips.coverage)} | ${pct(s.success.snips.coverage)} | ${num(dr.bias, 5)} | ${num(dr.meanAbsError)} | ${num(dr.ciWidth)} | ${num(s.effectiveSampleSize, 0)} |`,
  );
}
console.log('\nexpected value per decision (success × (amount − fee)), DR and SNIPS');
console.log('| candidate | DR coverage | DR bias | DR CI width | SNIPS coverage | SNIPS bias |');
console.log('|---|---|---|---|---|---|');
for (const s of summaries) {
  const { doublyRobust: dr, snips } = s.ev;
  console.log(`| ${s.name} | ${pct(dr.coverage)} | ${num(dr.bias, 3)} | ${num(dr.ciWidth, 3)} | ${pct(snips.coverage)} | ${num(snips.bias, 3)} |`);
}
const failing = summaries.filter((s) => s.supportedSeeds > 0 && s.success.doublyRobust.coverage < 0.9);
console.log(
  failing.length === 0 ? '\nevery supported candidate: DR 95 % interval coverage ≥ 90 %' : `\nBELOW 90 % coverage: ${failing.map((s) => s.name).join(', ')}`,
);
