#!/usr/bin/env node
// Where a decision's CPU goes, by thread: `switchyard serve` (embedded, 127.0.0.1), a plain SR merchant
// (session bearer), a WARMUP (3) s warm-up, then SECONDS (10) s of decide-bench's three-card mix at
// CONNECTIONS (64). Prints req/s, then the CPU µs per request of each group of the service's threads
// (from /proc/<pid>/task/*/stat, grouped by thread name with trailing digits dropped): the main thread,
// chDB's worker thread (`WorkerThread`: mapping, encoding and the native inserts), V8's helpers
// (`V8Worker`: parallel and concurrent GC), ClickHouse's pools (`ThreadPool`, `QueryPipelineEx`,
// `MergeMutate`: insert pipelines and merges), and their sum. On two cores every thread competes with
// the main one, so the sum is what throughput pays. SERVICE_NODE_FLAGS passes flags to the service
// (e.g. --cpu-prof --cpu-prof-dir=DIR: one profile per thread); ROOT=<dir> runs that checkout's dist/ instead of
// this one's (e.g. the scratch build `make bench-compare` leaves in /tmp/switchyard-compare-<sha>); VOLUME=1 gives the
// merchant decide-bench's volume commitment (row 2d); FEATURES=1 gives it multi-objective routing (seed costs),
// an active A/B experiment and its flag (decide-bench's row 2b); STICKY=1 turns sticky routing on and seeds
// CUSTOMERS (1000) customers' habits, every request naming one (row 2c with FEATURES=1). Linux only.
import { activateBenchContract } from './lib/bench-contract.mjs';
import { enableCostStepAndExperiment } from './lib/cost-step-experiment.mjs';
import { decideBody } from './lib/decide-body.mjs';
import { decideMixLoad } from './lib/decide-load.mjs';
import { threadGroupCpuSeconds } from './lib/proc-cpu.mjs';
import { namingCustomer, seedStickyHabits } from './lib/sticky-habits.mjs';
import { benchMerchant, json, spawnService } from './lib/spawn-service.mjs';

const warmup = Number(process.env.WARMUP ?? 3);
const seconds = Number(process.env.SECONDS ?? 10);
const connections = Number(process.env.CONNECTIONS ?? 64);
const customers = Number(process.env.CUSTOMERS ?? 1000);
const sticky = process.env.STICKY === '1';
const adminSecret = 'bench-admin-secret-0123456789abcdef';

const service = await spawnService({ ADMIN_SECRET: adminSecret }, process.env.ROOT ? { root: process.env.ROOT } : {});
try {
  const { headers } = await benchMerchant(service.url, adminSecret, 'threads');
  const post = (path, payload) => json(service.url, path, payload, headers);
  if (process.env.VOLUME === '1') await activateBenchContract('threads', post);
  if (process.env.FEATURES === '1') await enableCostStepAndExperiment(service.url, 'threads', headers, 'thread-cpu-experiment');
  if (sticky) await seedStickyHabits(post, 'threads', customers, (merchant, paymentId) => decideBody(merchant, paymentId));
  const shape = sticky ? namingCustomer(customers) : undefined;
  const load = (duration, prefix) => decideMixLoad(`${service.url}/decide-gateway`, headers, 'threads', { connections, duration, prefix, shape });
  await load(warmup, 'warm');
  const before = threadGroupCpuSeconds(service.pid);
  const result = await load(seconds, 'pay');
  const after = threadGroupCpuSeconds(service.pid);
  const requests = result.requests.total;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
  console.log(`decide: ${result.requests.average.toFixed(0)} req/s over ${seconds} s at ${connections} connections (${requests} requests)`);
  const perRequest = [...after].map(([name, cpu]) => [name, ((cpu - (before.get(name) ?? 0)) * 1e6) / requests]).filter(([, us]) => us >= 0.05);
  perRequest.sort((a, b) => b[1] - a[1]);
  for (const [name, us] of perRequest) console.log(`  ${name.padEnd(18)} ${us.toFixed(1).padStart(6)} µs/request`);
  console.log(
    `  ${'all threads'.padEnd(18)} ${perRequest
      .reduce((sum, [, us]) => sum + us, 0)
      .toFixed(1)
      .padStart(6)} µs/request`,
  );
} finally {
  await service.stop();
}
