#!/usr/bin/env node
// Profiles the embedded service under the decide load: `switchyard serve` from dist/ with
// `--cpu-prof` (main thread), a merchant with a session, a 3 s warm-up, then DURATION (10) s of
// POST /decide-gateway (the three-card mix, CONNECTIONS 64; FEATURES=1: multi-objective and an
// active A/B experiment on, as bench-compare's decide_features; VOLUME=1: decide-bench's volume
// commitment active with a published plan), then stops the service so V8
// writes the profile into PROFILE_DIR (/tmp/switchyard-profiles) and prints its summary
// (bench/profile-summary.mjs). ROOT=<checkout> profiles another build's dist/. 127.0.0.1 only.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { decideMixLoad } from './lib/decide-load.mjs';
import { benchMerchant, json, spawnService } from './lib/spawn-service.mjs';
import { enableCostStepAndExperiment } from './lib/cost-step-experiment.mjs';
import { activateBenchContract } from './lib/bench-contract.mjs';

const dir = process.env.PROFILE_DIR ?? '/tmp/switchyard-profiles';
const duration = Number(process.env.DURATION ?? 10);
const connections = Number(process.env.CONNECTIONS ?? 64);
const adminSecret = 'bench-admin-secret-0123456789abcdef';
mkdirSync(dir, { recursive: true });
const started = Date.now();
/** The measured window in ms after the service was spawned (~ the profile's start). */
const window = { from: 0, to: 0 };
process.env.SERVICE_NODE_FLAGS = `--cpu-prof --cpu-prof-dir=${dir} ${process.env.SERVICE_NODE_FLAGS ?? ''}`;
// ROOT: another build's checkout (e.g. bench-compare's /tmp/switchyard-compare-<sha>) instead of this one.
const service = await spawnService({ ADMIN_SECRET: adminSecret }, process.env.ROOT ? { root: process.env.ROOT } : {});
try {
  const name = `prof_${Date.now()}`;
  const { headers } = await benchMerchant(service.url, adminSecret, name);
  if (process.env.FEATURES === '1') await enableCostStepAndExperiment(service.url, name, headers, 'profile-experiment');
  if (process.env.VOLUME === '1') await activateBenchContract(name, (path, payload) => json(service.url, path, payload, headers));
  const run = (seconds, prefix) => decideMixLoad(`${service.url}/decide-gateway`, headers, name, { connections, duration: seconds, prefix });
  await run(3, 'warm');
  window.from = Date.now() - started + 300;
  const result = await run(duration, 'pay');
  window.to = Date.now() - started - 300;
  process.stderr.write(`${result.requests.average.toFixed(0)} req/s, ${result.requests.total} requests, ${result.non2xx} non-2xx\n`);
} finally {
  await service.stop();
}
const written = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .map((f) => join(dir, f))
  .filter((f) => statSync(f).mtimeMs >= started && f.includes(`.${service.pid}.0.`)); // CPU.<date>.<time>.<pid>.<thread>.<seq>: thread 0 is the main one
if (written.length === 0) throw new Error(`no main-thread profile of ${service.pid} in ${dir}`);
process.stderr.write(`profile: ${written[0]}\n`);
process.stderr.write(`load window: FROM_MS=${window.from} TO_MS=${window.to}\n`);
execFileSync(process.execPath, [new URL('./profile-summary.mjs', import.meta.url).pathname, written[0]], {
  stdio: 'inherit',
  env: { ...process.env, FROM_MS: String(window.from), TO_MS: String(window.to) },
});
