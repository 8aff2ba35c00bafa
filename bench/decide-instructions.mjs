#!/usr/bin/env node
// Instructions and simulated cache misses per decision, for each feature row of decide-bench, counted
// by valgrind's cachegrind instead of timed. With V8's hash and random seeds fixed (SEED, 1), a run's
// count repeats to a few instructions per decision, where a timed bench on this shared machine wanders
// by ±20 % between runs. Another seed lays V8's hash tables out differently and moves the instructions
// by up to ~1,000 per decision, the last-level misses by ~2: a difference between builds smaller than
// that needs runs under several seeds. What it cannot show is time: a miss costs what the machine
// makes it cost, and the service's HTTP, hand-off and analytics are not in it (bench/rows-by-thread.mjs
// and decide-bench measure those).
//
// The decision use case from a build's dist/ (createDecidePayment on the embedded store and bus, as
// decide-cost.ts runs it), with a deterministic clock and random source, the three-card mix naming one
// of CUSTOMERS (1000) customers, and a write of THRASH_KB (32) KiB of a 64 MiB buffer before each
// decision, so what a decision reads of the previous ones is out of the simulated cache as in a busy
// service. V8 runs single-threaded, so its compiler and collector count on the one thread valgrind sees.
// Per kind, two runs after the same WARM_UP (40,000) decisions: N1 (4,000) and N2 (16,000) more; the
// difference of their totals over N2 − N1 is the figure per decision, so start-up, warm-up and the
// compilations that finish early in the measured decisions cancel out. The last level cache is
// simulated at 2 MiB (this machine's L2 per core), so `LL misses` are reads and writes a real L2 misses.
//
//   node bench/decide-instructions.mjs                         (every kind; ~10 min on 2 cores)
//   KINDS=plain,row2c BASE=/tmp/switchyard-compare-<sha> node bench/decide-instructions.mjs
//
// SR_WINDOWS=filled fills the three cards' windows of every gateway with the benches' bucket of outcomes
// first (bench/lib/score-windows.mjs), so scores are fractions as a live merchant's are.
//
// BASE=<checkout with dist/> counts another build too (e.g. bench-compare's scratch copy), kind by
// kind beside this one. Needs valgrind (Debian's package). Prints a table and a JSON line.
//
// MEASURE=allocations counts bytes instead, without valgrind (~15 s for every kind): per kind, one run
// of DECISIONS (50,000) decisions after the warm-up under V8's sampling heap profiler, which keeps the
// samples of objects already collected, so it gives what a decision allocates (its garbage included)
// and which functions allocate it, over plain SR's. What a row allocates is what it costs the
// scavenger and, written to lines no cache holds, what cachegrind counts as last-level write misses.
import { execFile, spawnSync } from 'node:child_process';
import { Session } from 'node:inspector';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { abTestRule } from './lib/ab-test-rule.mjs';
import { benchSeedCosts } from './lib/cost-step-experiment.mjs';
import { decideMixBody } from './lib/decide-body.mjs';
import { seededRandom } from './lib/seeded-random.mjs';
import { benchBucketSize, benchWindowBucket, filledWindowsAsked } from './lib/score-windows.mjs';
import { frameName } from './lib/profile-frame.mjs';
import { namingCustomer } from './lib/sticky-habits.mjs';

/** The merchant's features per kind: decide-bench's rows (row2c is its row 2c). */
const kindFeatures = {
  plain: {},
  sticky: { 'sticky-routing': true },
  'multi-objective': { 'multi-objective-routing': true },
  experiment: { 'ab-test-real-payments': true },
  'multi-objective + experiment': { 'multi-objective-routing': true, 'ab-test-real-payments': true },
  row2c: { 'multi-objective-routing': true, 'ab-test-real-payments': true, 'sticky-routing': true },
};

const positive = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} takes a whole number ≥ 0; got "${process.env[name]}"`);
  return value;
};

function signed(value, digits) {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(digits)}`;
}

if (process.env.DECIDE_INSTRUCTIONS_CHILD === '1') await runDecisions();
else if (process.env.MEASURE === 'allocations') await countAllocations();
else await countKinds();

/** The kinds KINDS names (every kind by default), checked. */
function kindsAsked() {
  const kinds = (process.env.KINDS ?? Object.keys(kindFeatures).join(',')).split(',').map((kind) => kind.trim());
  for (const kind of kinds) if (!(kind in kindFeatures)) throw new Error(`unknown kind "${kind}"; kinds: ${Object.keys(kindFeatures).join(', ')}`);
  // Refused here, before a child runs, rather than in every child.
  filledWindowsAsked();
  return kinds;
}

/** This build, and BASE's when given: [label, checkout]. */
function buildsAsked() {
  const here = new URL('..', import.meta.url).pathname;
  return [...(process.env.BASE === undefined ? [] : [['base', resolve(process.env.BASE)]]), ['this', resolve(here)]];
}

/** The parent: every kind under cachegrind, two runs at a time, and the table. */
async function countKinds() {
  const kinds = kindsAsked();
  const n1 = positive('N1', 4000);
  const n2 = positive('N2', 16000);
  if (n2 <= n1) throw new Error('N2 must be larger than N1');
  if (spawnSync('valgrind', ['--version']).status !== 0) throw new Error('valgrind is not installed: apt-get install valgrind (Debian)');
  const builds = buildsAsked();
  const parallel = Math.max(1, Math.min(2, availableParallelism()));
  const jobs = [];
  for (const kind of kinds) for (const [build, root] of builds) for (const decisions of [n1, n2]) jobs.push({ kind, build, root, decisions });
  const counts = new Map();
  let done = 0;
  const started = Date.now();
  const worker = async () => {
    for (let job = jobs.shift(); job !== undefined; job = jobs.shift()) {
      const count = await cachegrind(job);
      counts.set(`${job.build}|${job.kind}|${job.decisions}`, count);
      done += 1;
      process.stderr.write(
        `  ${done} runs done (${job.build} ${job.kind} +${job.decisions}: ${JSON.stringify(count)}), ${Math.round((Date.now() - started) / 1000)} s\n`,
      );
    }
  };
  process.stderr.write(`decide-instructions: ${kinds.length} kinds × ${builds.length} builds × 2 runs under cachegrind, ${parallel} at a time\n`);
  await Promise.all(Array.from({ length: parallel }, worker));

  const perDecision = (build, kind) => {
    const a = counts.get(`${build}|${kind}|${n1}`);
    const b = counts.get(`${build}|${kind}|${n2}`);
    return Object.fromEntries(Object.keys(a).map((key) => [key, (b[key] - a[key]) / (n2 - n1)]));
  };
  const result = {};
  const line = (label, figures, plain, base) => {
    const extra = (key, digits) => (plain === undefined ? '' : ` (${signed(figures[key] - plain[key], digits)})`);
    const versus =
      base === undefined ? '' : `  vs base: ${signed(figures.instructions - base.instructions, 0)} instr, ${signed(figures.llMisses - base.llMisses, 1)} LL`;
    console.log(
      `${label.padEnd(36)} ${figures.instructions.toFixed(0).padStart(7)} instr${extra('instructions', 0).padEnd(10)} ${figures.d1Misses.toFixed(0).padStart(5)} D1 misses${extra('d1Misses', 0).padEnd(8)} ${figures.llMisses.toFixed(1).padStart(6)} LL misses${extra('llMisses', 1).padEnd(9)}${versus}`,
    );
  };
  console.log(
    `decide-instructions: per decision, (run of +${n2} − run of +${n1}) / ${n2 - n1}, after ${positive('WARM_UP', 40000)} decisions; in brackets, over plain of the same build`,
  );
  for (const [build] of builds) {
    result[build] = {};
    const plain = kinds.includes('plain') ? perDecision(build, 'plain') : undefined;
    for (const kind of kinds) {
      const figures = perDecision(build, kind);
      result[build][kind] = Object.fromEntries(Object.entries(figures).map(([key, value]) => [key, Math.round(value * 10) / 10]));
      const base = build === 'this' && builds.length > 1 ? perDecision('base', kind) : undefined;
      line(`${build === 'this' ? '' : `${build}: `}${kind}`, figures, kind === 'plain' ? undefined : plain, base);
    }
  }
  console.log(
    JSON.stringify({
      benchmark: 'decide-instructions',
      n1,
      n2,
      thrash_kb: positive('THRASH_KB', 32),
      customers: positive('CUSTOMERS', 1000),
      per_decision: result,
    }),
  );
}

/**
 * MEASURE=allocations: per kind (and build), one child of DECISIONS (50,000) decisions after the
 * warm-up, not under valgrind, sampling what each allocates; prints bytes per decision and, for each
 * kind but plain, the TOP (12) functions whose allocations differ most from plain's.
 */
async function countAllocations() {
  const kinds = kindsAsked();
  const builds = buildsAsked();
  const decisions = Math.max(1, positive('DECISIONS', 50000));
  const seed = positive('SEED', 1);
  const top = positive('TOP', 12);
  const sampled = new Map();
  for (const [build, root] of builds) {
    for (const kind of kinds) {
      process.stderr.write(`  sampling ${build} ${kind} (${decisions} decisions)…\n`);
      const env = {
        ...process.env,
        DECIDE_INSTRUCTIONS_CHILD: '1',
        DECIDE_ALLOCATIONS: '1',
        ROOT: root,
        KIND: kind,
        DECISIONS: String(decisions),
        THRASH_KB: '0',
      };
      const child = spawnSync(process.execPath, ['--single-threaded', `--hash-seed=${seed}`, `--random-seed=${seed}`, new URL(import.meta.url).pathname], {
        env,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      if (child.status !== 0) throw new Error(`allocation run of ${kind} (${root}) failed:\n${child.stderr.slice(-2000)}`);
      const { bytes, byFunction } = JSON.parse(child.stdout.trim().split('\n').at(-1));
      sampled.set(`${build}|${kind}`, {
        bytes: bytes / decisions,
        byFunction: new Map(Object.entries(byFunction).map(([key, value]) => [key, value / decisions])),
      });
    }
  }
  console.log(`decide-instructions (allocations): bytes allocated per decision, sampled over ${decisions} decisions after the warm-up`);
  const result = {};
  for (const [build] of builds) {
    result[build] = {};
    const plain = sampled.get(`${build}|plain`);
    for (const kind of kinds) {
      const figures = sampled.get(`${build}|${kind}`);
      result[build][kind] = Math.round(figures.bytes);
      const base = build === 'this' && builds.length > 1 ? sampled.get(`base|${kind}`) : undefined;
      const extra = plain === undefined || kind === 'plain' ? '' : ` (${signed(figures.bytes - plain.bytes, 0)} over plain)`;
      const versus = base === undefined ? '' : `  vs base: ${signed(figures.bytes - base.bytes, 0)} B`;
      console.log(`${`${build === 'this' ? '' : `${build}: `}${kind}`.padEnd(36)} ${figures.bytes.toFixed(0).padStart(6)} B${extra}${versus}`);
    }
    if (plain === undefined) continue;
    for (const kind of kinds) {
      if (kind === 'plain') continue;
      const figures = sampled.get(`${build}|${kind}`);
      const names = new Set([...plain.byFunction.keys(), ...figures.byFunction.keys()]);
      const differences = [...names]
        .map((name) => [name, (figures.byFunction.get(name) ?? 0) - (plain.byFunction.get(name) ?? 0)])
        .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
        .slice(0, top);
      console.log(
        `  ${build === 'this' ? '' : `${build}: `}${kind} over plain, by allocating function (bytes per decision; inlining moves bytes between callers):`,
      );
      for (const [name, bytes] of differences) console.log(`    ${signed(bytes, 0).padStart(6)}  ${name}`);
    }
  }
  console.log(JSON.stringify({ benchmark: 'decide-allocations', decisions, bytes_per_decision: result }));
}

/** One child run under cachegrind: its totals of instructions, D1 misses and last-level misses (data). */
function cachegrind({ kind, root, decisions }) {
  const seed = positive('SEED', 1);
  const args = [
    '--tool=cachegrind',
    '--cache-sim=yes',
    '--LL=2097152,16,64',
    '--cachegrind-out-file=/dev/null',
    process.execPath,
    '--single-threaded',
    // Fixed seeds: V8's hash tables lay out alike from run to run, so a count repeats.
    `--hash-seed=${seed}`,
    `--random-seed=${seed}`,
    new URL(import.meta.url).pathname,
  ];
  const env = { ...process.env, DECIDE_INSTRUCTIONS_CHILD: '1', ROOT: root, KIND: kind, DECISIONS: String(decisions) };
  return new Promise((resolveRun, reject) => {
    execFile('valgrind', args, { env, maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (error !== null) {
        reject(new Error(`cachegrind run of ${kind} (${root}) failed: ${error.message}\n${stderr.slice(-2000)}`));
        return;
      }
      const total = (label) => {
        const match = new RegExp(`${label}:\\s+([\\d,]+)`).exec(stderr);
        if (match === null) throw new Error(`no "${label}" in cachegrind's summary:\n${stderr.slice(-2000)}`);
        return Number((match[1] ?? '').replaceAll(',', ''));
      };
      resolveRun({ instructions: total('I\\s+refs'), d1Misses: total('D1\\s+misses'), llMisses: total('LLd misses') });
    });
  });
}

/** The child: WARM_UP decisions of KIND, then DECISIONS more (valgrind counts the whole process). */
async function runDecisions() {
  const root = resolve(process.env.ROOT ?? '.');
  const kind = process.env.KIND ?? 'plain';
  const features = kindFeatures[kind];
  if (features === undefined) throw new Error(`unknown KIND ${kind}`);
  const warmUp = positive('WARM_UP', 40000);
  const decisions = positive('DECISIONS', 0);
  const customers = Math.max(1, positive('CUSTOMERS', 1000));
  const thrashBytes = positive('THRASH_KB', 32) * 1024;
  const from = (path) => import(join(root, 'dist/src', path));

  const { createMemoryEventBus } = await from('adapters/memory/memory-event-bus.js');
  const { createMemoryStateStore } = await from('adapters/memory/memory-state-store.js');
  const { createDecidePayment } = await from('decision/decide-payment.js');
  const { defaultRoutingDefaults } = await from('decision/routing-defaults.js');
  const { customerKeyOf, stickyComboOf } = await from('decision/sticky/sticky-key.js');
  const { validateEvent } = await from('events/validate-event.js');
  const { silentLogger } = await from('logging/logger.js');
  const { activateRoutingAlgorithm, createRoutingAlgorithm } = await from('routing-rules/manage-routing-algorithms.js');

  // A clock and random source the same on every run: nothing a decision does may depend on the time.
  let tick = 1_780_000_000_000;
  const clock = { now: () => tick };
  const random = { next: seededRandom(1) };
  const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
  const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent });
  // A consumer that commits everything, as the embedded workers would, so the bus holds nothing.
  const drain = await bus.subscribe({ group: 'drain', topics: ['routing'], handler: async () => undefined });
  const decide = createDecidePayment({ state, bus, random, clock, defaults: defaultRoutingDefaults });

  const merchantId = 'instructions';
  await state.merchants.create({ merchantId, merchantName: null, deciderInput: null, createdAt: 1 });
  await state.configs.put(merchantId, 'successRate', { defaultBucketSize: 125, defaultHedgingPercent: 0 }, 'upsert');
  await state.configs.put(merchantId, 'features', features, 'upsert');
  // The benches' seed costs (the wire's rows in the store's form), for every kind: only a cost-aware one reads them.
  const seedCosts = benchSeedCosts.rows.map((row) => ({
    psp: row.psp,
    interchangeBps: row.interchange_bps,
    schemeBps: row.scheme_bps,
    markupBps: row.markup_bps,
    fixed: row.fixed,
    isDefault: row.is_default,
  }));
  await state.configs.put(merchantId, 'seedCosts', seedCosts, 'upsert');
  if (features['ab-test-real-payments'] === true) {
    const manage = { state, clock };
    const experiment = await createRoutingAlgorithm(manage, {
      rule_id: 'instructions_experiment',
      ...abTestRule('bench-experiment', merchantId, { hedging_percent: 2 }),
    });
    await activateRoutingAlgorithm(manage, merchantId, experiment.id);
  }
  if (features['sticky-routing'] === true) {
    // Every customer's habit on adyen, so nearly every sticky decision reads the counts and pins.
    const combo = stickyComboOf({ paymentMethod: 'CREDIT', paymentMethodType: 'CARD' });
    for (let index = 0; index < customers; index += 1) {
      await state.sticky.adjust({
        customer: { merchantId, customerKey: customerKeyOf(`cust_${index}`) },
        combo,
        connector: 'adyen',
        delta: 1,
        ttlSeconds: 86_400,
        maxEntries: 30,
        dedupeKey: `seed_${index}`,
        dedupeTtlSeconds: 60,
      });
    }
  }

  if (filledWindowsAsked()) await fillWindowsInProcess(state, decide, merchantId, from);

  const thrash = new Uint8Array(thrashBytes === 0 ? 0 : 64 * 1024 * 1024);
  let thrashAt = 0;
  const withCustomer = namingCustomer(customers);
  let payment = 0;
  const run = async (count) => {
    for (let call = 0; call < count; call += 1) {
      for (const end = thrashAt + thrashBytes; thrashAt < end; thrashAt += 64) thrash[thrashAt % thrash.length] = call;
      const index = payment++;
      tick += 1;
      const decided = await decide(withCustomer(decideMixBody(merchantId, `p_${index}`, index), index), { requestId: `r${index}`, startedAt: 0 });
      if (!decided.ok) throw new Error(`decision failed: ${JSON.stringify(decided.failure)}`);
      // A turn of the event loop every 32 decisions, as a loaded service's (the bus delivers at setImmediate).
      if ((call & 31) === 31) await new Promise((done) => setImmediate(done));
    }
    await drain.caughtUp();
  };
  await run(warmUp);
  const sampling = process.env.DECIDE_ALLOCATIONS === '1' ? startAllocationSampling() : undefined;
  await run(decisions);
  if (sampling !== undefined) process.stdout.write(`${JSON.stringify(sampling.stop())}\n`);
  process.exit(0);
}

/**
 * MEASURE=allocations' child: V8's sampling heap profiler from here on, keeping the samples of
 * objects already collected (so it counts what was allocated, not what is still alive). stop()
 * gives the sampled bytes in all and by allocating function.
 */
function startAllocationSampling() {
  const session = new Session();
  session.connect();
  // A session in this thread answers its posts before post() returns.
  const post = (method, params) => {
    let answer;
    session.post(method, params, (error, result) => {
      if (error !== null) throw error;
      answer = result;
    });
    if (answer === undefined) throw new Error(`${method}: no synchronous answer from the inspector`);
    return answer;
  };
  post('HeapProfiler.enable');
  post('HeapProfiler.startSampling', {
    samplingInterval: positive('SAMPLING_BYTES', 256),
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return {
    stop() {
      const { profile } = post('HeapProfiler.stopSampling');
      const byFunction = {};
      let bytes = 0;
      const visit = (node) => {
        if (node.selfSize > 0) {
          const key = frameName(node.callFrame);
          byFunction[key] = (byFunction[key] ?? 0) + node.selfSize;
          bytes += node.selfSize;
        }
        for (const child of node.children) visit(child);
      };
      visit(profile.head);
      return { bytes, byFunction };
    },
  };
}

/**
 * SR_WINDOWS=filled: every card's window of every gateway holds the benches' bucket of outcomes
 * (bench/lib/score-windows.mjs), as a merchant's windows do once its traffic has run for a while, so
 * scores are fractions (a decision on empty windows scores every gateway 1).
 */
async function fillWindowsInProcess(state, decide, merchantId, from) {
  const { windowKeyFor } = await from('decision/window-key.js');
  const bucket = benchWindowBucket();
  for (let card = 0; card < 3; card += 1) {
    const decided = await decide(decideMixBody(merchantId, `seed_${card}`, card), { requestId: `seed_${card}`, startedAt: 0 });
    if (!decided.ok || decided.decision.windowDimension === null) throw new Error('the seed decision has no window dimension');
    for (let slot = 0; slot < benchBucketSize; slot += 1) {
      for (const [gateway, success] of Object.entries(bucket[slot])) {
        await state.scores.recordOutcome({
          windowKey: windowKeyFor(decided.decision.windowDimension, gateway),
          outcome: success ? 1 : 0,
          bucketSize: benchBucketSize,
          dedupeKey: `seed_${card}_${gateway}_${slot}`,
          dedupeTtlSeconds: 60,
          windowTtlSeconds: 86_400,
        });
      }
    }
  }
}
