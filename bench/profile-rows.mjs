#!/usr/bin/env node
// Profiles two decide rows in ONE service process (so a difference between them is the row's, not
// the process's): `switchyard serve` with `--cpu-prof`, a plain SR merchant and a second merchant
// with ROW's setting (volume: decide-bench's volume commitment with a published plan; sticky: the
// feature on and CUSTOMERS (200) customers' habits seeded; features: multi-objective and an A/B
// experiment; all: features and sticky, decide-bench's row 2c), then plain, row, plain, row …
// (ROUNDS 2, SECONDS 5 each, CONNECTIONS 64). As in decide-bench's interleaved rows, every body names one
// of the customers, plain SR's too, so the rows differ only in the merchant's settings (SAME_TRAFFIC=0:
// a customer only where sticky routing is on). Before the rounds, FILL_SECONDS (40) of both rows' load
// bring the decision contexts to their bound, so every round pays for evictions alike. Prints, per request, the busy main-thread µs of each
// row and the TOP (30) functions whose self time differs most between the two rows' load windows
// (BY=file sums per file instead), then a JSON line with the profile and the windows
// (FROM_MS/TO_MS for bench/profile-summary.mjs). 127.0.0.1 only.
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { enableCostStepAndExperiment } from './lib/cost-step-experiment.mjs';
import { activateBenchContract } from './lib/bench-contract.mjs';
import { decideMixBody } from './lib/decide-body.mjs';
import { decideMixLoad } from './lib/decide-load.mjs';
import { eachSample, frameFile, frameName } from './lib/profile-frame.mjs';
import { benchMerchant, json, spawnService } from './lib/spawn-service.mjs';
import { namingCustomer, seedStickyHabits } from './lib/sticky-habits.mjs';

const dir = process.env.PROFILE_DIR ?? '/tmp/switchyard-profiles';
const row = process.env.ROW ?? 'volume';
const seconds = Number(process.env.SECONDS ?? 5);
const rounds = Number(process.env.ROUNDS ?? 2);
const connections = Number(process.env.CONNECTIONS ?? 64);
const customers = Number(process.env.CUSTOMERS ?? 200);
const sameTraffic = process.env.SAME_TRAFFIC !== '0';
/** Seconds of both rows' load before the measured rounds, to bring the decision contexts to their bound (FILL_SECONDS=0: none). */
const fillSeconds = Number(process.env.FILL_SECONDS ?? 40);
const fillStep = 5;
if (!Number.isInteger(fillSeconds) || fillSeconds < 0) throw new Error(`FILL_SECONDS takes a whole number ≥ 0; got "${process.env.FILL_SECONDS}"`);
const adminSecret = 'bench-admin-secret-0123456789abcdef';
if (!['volume', 'sticky', 'features', 'all'].includes(row)) throw new Error(`ROW takes volume, sticky, features or all; got "${row}"`);
mkdirSync(dir, { recursive: true });
const started = Date.now();
process.env.SERVICE_NODE_FLAGS = `--cpu-prof --cpu-prof-dir=${dir} ${process.env.SERVICE_NODE_FLAGS ?? ''}`;
const service = await spawnService({ ADMIN_SECRET: adminSecret });
const withCustomer = namingCustomer(customers);

const merchant = async (name) => (await benchMerchant(service.url, adminSecret, name)).headers;

function run(name, headers, prefix, duration, customer) {
  return decideMixLoad(`${service.url}/decide-gateway`, headers, name, { connections, duration, prefix, shape: customer ? withCustomer : undefined });
}

const windows = { plain: [], [row]: [] };
try {
  const stamp = Date.now();
  const plain = { name: `plain_${stamp}`, customer: sameTraffic };
  plain.headers = await merchant(plain.name);
  const other = { name: `${row}_${stamp}`, customer: sameTraffic || row === 'sticky' || row === 'all' };
  other.headers = await merchant(other.name);
  const h = other.headers;
  if (row === 'volume') {
    await activateBenchContract(other.name, (path, payload) => json(service.url, path, payload, h));
  } else {
    if (row !== 'sticky') await enableCostStepAndExperiment(service.url, other.name, h, 'profile-experiment');
    if (row !== 'features') await seedStickyHabits((path, payload) => json(service.url, path, payload, h), other.name, customers, decideMixBody);
  }
  for (const target of [plain, other]) await run(target.name, target.headers, 'warm', 2, target.customer);
  // Fill the decision contexts to their bound (500,000, evicted oldest first) before measuring: until
  // then no decision pays for an eviction, and the rounds that run before the bound is reached would
  // be cheaper than the ones after it, whichever row they belong to.
  for (let filled = 0; filled < fillSeconds; filled += 2 * fillStep) {
    process.stderr.write(`filling the decision contexts: ${filled} of ${fillSeconds}s…\n`);
    for (const target of [plain, other]) await run(target.name, target.headers, `fill${filled}`, fillStep, target.customer);
  }
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
// V8 writes the profile when the service exits (service.stop() above).
const written = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile') && f.includes(`.${service.pid}.0.`))
  .map((f) => join(dir, f))
  .filter((f) => statSync(f).mtimeMs >= started);
if (written.length === 0) throw new Error(`no main-thread profile of ${service.pid} in ${dir}`);
const perRequest = selfMicrosPerRequest(JSON.parse(readFileSync(written[0], 'utf8')));
const busy = (key) => [...perRequest[key].entries()].reduce((sum, [name, us]) => (name.startsWith('(idle)') ? sum : sum + us), 0);
console.log(`busy main-thread µs per request: plain SR ${busy('plain').toFixed(1)}, ${row} ${busy(row).toFixed(1)}`);
console.log(`self µs per request, ${row} minus plain SR (${row} | plain):`);
const names = new Set([...perRequest.plain.keys(), ...perRequest[row].keys()]);
const diffs = [...names].map((name) => [name, perRequest[row].get(name) ?? 0, perRequest.plain.get(name) ?? 0]);
diffs.sort((a, b) => Math.abs(b[1] - b[2]) - Math.abs(a[1] - a[2]));
for (const [name, mine, plainUs] of diffs.slice(0, Number(process.env.TOP ?? 30))) {
  console.log(`${(mine - plainUs).toFixed(2).padStart(7)}  ${mine.toFixed(2).padStart(6)} | ${plainUs.toFixed(2).padStart(6)}  ${name}`);
}
console.log(JSON.stringify({ profile: written[0], windows }));

/** Self time per function (or per file with BY=file) in each row's windows, µs per request of that row. */
function selfMicrosPerRequest(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const nameOf = (node) => {
    if (process.env.BY !== 'file') return frameName(node.callFrame);
    const where = frameFile(node.callFrame);
    return where === '' ? node.callFrame.functionName || '(anonymous)' : where.replace(/^(node_modules\/(@[^/]+\/)?[^/]+).*/, '$1');
  };
  const result = {};
  for (const [key, spans] of Object.entries(windows)) {
    const sums = new Map();
    const requests = spans.reduce((sum, span) => sum + span.requests, 0);
    eachSample(profile, (at, id, us) => {
      const ms = (at - profile.startTime) / 1000;
      if (!spans.some((span) => ms >= span.from && ms <= span.to)) return;
      const name = nameOf(byId.get(id));
      sums.set(name, (sums.get(name) ?? 0) + us);
    });
    result[key] = new Map([...sums].map(([name, us]) => [name, us / requests]));
  }
  return result;
}
