// One build's decide cost without sockets: starts ROOT's `switchyard serve` composition root in this
// process (dist/cli/start-service.js, embedded, in-process workers), sets up a merchant with a
// session (FEATURES=1: multi-objective, seed costs, an active sticky A/B experiment and its flag;
// FEATURES=sticky: sticky routing on, every body naming one of CUSTOMERS (1000) customers whose habit
// on adyen is seeded through feedback first; FEATURES=all: both of these; FEATURES=volume: the
// volume-contracts flag and an active volume commitment whose forecast steers; the setups of
// decide-bench's rows 2b, 2c and 2d),
// sends WARMUP then N `POST /decide-gateway` through fastify's inject at CONCURRENCY in flight (the
// three-card mix, a fresh payment id each), and prints one JSON line: main-thread and whole-process
// CPU µs per decision over the N (from /proc), and decisions/s. Used by bench-compare's MODE=inject:
// no load generator and no loopback writes share the cores, so on a busy machine its CPU figure
// moves far less than the HTTP one. Builds from before cli/start-service.ts existed cannot run it.
import { activateBenchContract } from './bench-contract.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decideBody } from './decide-body.mjs';
import { cpuSeconds } from './proc-cpu.mjs';
import { abTestRule } from './ab-test-rule.mjs';
import { benchSeedCosts } from './cost-step-experiment.mjs';
import { namingCustomer, seedStickyHabits } from './sticky-habits.mjs';

const root = process.env.ROOT;
if (!root) throw new Error('ROOT=<checkout with dist/> is required');
const n = Number(process.env.N ?? 20_000);
const warmup = Number(process.env.WARMUP ?? 4_000);
const concurrency = Number(process.env.CONCURRENCY ?? 32);
const scenario = process.env.FEATURES ?? '0';
if (!['0', '1', 'sticky', 'all', 'volume'].includes(scenario)) throw new Error(`FEATURES takes 0, 1, sticky, all or volume; got "${scenario}"`);
const features = scenario === '1' || scenario === 'all';
const customers = Number(process.env.CUSTOMERS ?? 1000);
const adminSecret = 'bench-admin-secret-0123456789abcdef';

const { startServer } = await import(join(root, 'dist/cli/start-service.js'));
const { loadConfig } = await import(join(root, 'dist/src/config/load-config.js'));
const { createLogger } = await import(join(root, 'dist/cli/create-logger.js'));
const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-inject-'));
// Its data directory goes with the process.
process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ADMIN_SECRET: adminSecret });
const server = await startServer(config, createLogger(config), { toolkit: { env: {}, cwd: dataDir } });
const { app } = server; // stopped once the figures are printed

const post = async (url, payload, headers, method = 'POST') => {
  const response = await app.inject({ method, url, payload, headers });
  if (response.statusCode >= 300) throw new Error(`${url} → ${response.statusCode} ${response.body}`);
  return response.body.startsWith('{') ? response.json() : response.body;
};
const merchant = `inject_${Date.now()}`;
await post('/merchant-account/create', { merchant_id: merchant }, { 'x-admin-secret': adminSecret });
const session = await post(
  '/auth/signup',
  { email: `${merchant}@bench.example`, password: 'violet-harbour-lantern-42', merchant_id: merchant },
  { 'x-admin-secret': adminSecret },
);
const auth = { authorization: `Bearer ${session.token}` };
await post('/rule/create', { merchant_id: merchant, config: { type: 'successRate', data: { defaultBucketSize: 125, defaultHedgingPercent: 5 } } }, auth);
if (features) {
  for (const feature of ['multi-objective-routing', 'ab-test-real-payments'])
    await post(`/merchant-account/${merchant}/features/${feature}`, { enabled: true }, auth);
  await post(`/merchant-account/${merchant}/seed-costs`, benchSeedCosts, auth, 'PUT');
  const experiment = await post('/routing/create', abTestRule('inject-experiment', merchant, { margin: 0.5 }), auth);
  await post('/routing/activate', { created_by: merchant, routing_algorithm_id: experiment.rule_id }, auth);
}

if (scenario === 'volume') await activateBenchContract(merchant, (path, payload) => post(path, payload, auth));
const sticky = scenario === 'sticky' || scenario === 'all';
const withCustomer = sticky ? namingCustomer(customers) : (body) => body;
if (sticky)
  await seedStickyHabits(
    (path, payload) => post(path, payload, auth),
    merchant,
    customers,
    (name, paymentId) => decideBody(name, paymentId),
  );

const cards = [
  { cardIsin: '411111', cardSwitchProvider: 'VISA', cardType: 'CREDIT' },
  { cardIsin: '510510', cardSwitchProvider: 'MASTERCARD', cardType: 'DEBIT' },
  { cardIsin: '378282', cardSwitchProvider: 'AMEX', cardType: 'CREDIT' },
];
const headers = { ...auth, 'content-type': 'application/json' };
/** `count` decisions, `concurrency` in flight; throws on any non-200. */
async function decide(count, prefix) {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const base = decideBody(merchant, `${prefix}_${i}`);
      const payload = JSON.stringify(withCustomer({ ...base, paymentInfo: { ...base.paymentInfo, ...cards[i % cards.length] } }, i));
      const response = await app.inject({ method: 'POST', url: '/decide-gateway', payload, headers });
      if (response.statusCode !== 200) throw new Error(`decide → ${response.statusCode} ${response.body}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}

await decide(warmup, 'warm');
// PROFILE=<file.cpuprofile>: V8's sampling profile of the main thread over the N only (no start-up, no
// warm-up), for bench/profile-summary.mjs. The profiler's own cost raises the CPU figures a little.
const profiler = process.env.PROFILE ? new (await import('node:inspector/promises')).Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.setSamplingInterval', { interval: 250 });
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
const mainBefore = cpuSeconds(process.pid, process.pid);
const allBefore = cpuSeconds(process.pid);
const started = performance.now();
await decide(n, 'pay');
const seconds = (performance.now() - started) / 1000;
const main = cpuSeconds(process.pid, process.pid) - mainBefore;
const all = cpuSeconds(process.pid) - allBefore;
if (profiler) {
  const { profile } = await profiler.post('Profiler.stop');
  (await import('node:fs')).writeFileSync(process.env.PROFILE, JSON.stringify(profile));
}
console.log(JSON.stringify({ decisions: n, rps: n / seconds, mainUs: (1e6 * main) / n, allUs: (1e6 * all) / n }));
// The figures are out (a pipe is written synchronously). A graceful stop: exiting at once can catch
// chDB's thread in an insert, which aborts or wedges the process. Should the stop itself hang, the
// process removes its data directory and kills itself after 10 s.
const hardStop = setTimeout(() => {
  rmSync(dataDir, { recursive: true, force: true });
  process.kill(process.pid, 'SIGKILL');
}, 10_000);
await server.stop();
clearTimeout(hardStop);
process.exit(0);
