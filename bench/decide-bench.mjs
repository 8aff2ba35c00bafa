#!/usr/bin/env node
// Decide benchmark (embedded mode unless REDIS_URL/KAFKA_BROKERS are set in the environment; then the
// API runs with EMBEDDED_WORKERS=false beside `worker sr-windows` and `worker analytics-sink` processes).
// In one run, with the same tool and settings (autocannon, CONNECTIONS=64, DURATION s, the
// three-card success-rate payload mix, a session's bearer token, a fresh payment id per request):
//   1. a bare node:http JSON echo (its own process): the HTTP ceiling of this machine;
//   2. POST /decide-gateway on `switchyard serve`: req/s as a share of the echo, latency p50/p99;
//   2b. the same load for a second merchant with cost-aware routing on (the `multi-objective-routing`
//      flag and a seed table, so the EV post-step re-ranks every SR decision that is not hedged) and,
//      unless EXPERIMENT=0, an active A/B experiment with its flag (`ab-test-real-payments`: sticky
//      per-payment arms, sr_routing both sides, the variant with its own margin): req/s, latency and
//      CPU per decision beside the plain SR row of the same service and run (MULTI_OBJECTIVE=0 skips it);
//   2c. unless STICKY=0, two more merchants with sticky routing on (`sticky-routing`): every request names
//      one of CUSTOMERS (default 1000) customers whose habit on adyen was seeded through feedback first, so
//      nearly every decision reads the counts and pins: "sticky routing" (plain SR + sticky) and, with 2b's
//      settings, "multi-objective + experiment + sticky"; req/s as a share of plain SR, latency, CPU, and
//      the pinned share from /metrics;
//   2d. the same load for a merchant with an active volume commitment (the `volume-contracts` flag, a
//      `volume_contract` document owing adyen volume, and a forecast run so a plan steers a share of its
//      payments): req/s, latency and CPU per decision beside plain SR (VOLUME_COMMITMENT=0 skips it);
//   2e. unless PLAIN_AGAIN=0, plain SR once more after every other row, and each row's share of it: the
//      rows run in one process after the first plain SR row, so that row alone has the freshest heap;
//   2f. unless ROUNDS=0, ROUNDS (default: one balanced cycle, below) interleaved rounds of every row above
//      (INTERLEAVE=<label>,… keeps those rows and plain SR, e.g. one row and plain SR in many short rounds),
//      ROUND_SECONDS (default 4) each after a 1 s warm-up: each row's req/s as a share of the same round's
//      plain SR and its main-thread CPU per decision, the median round per row, with a bootstrap 95 %
//      interval of that median over the run's rounds (bench/lib/median-interval.mjs). The sequential rows above
//      each meet the machine's load and the server's state at a different time; here a load swing or a
//      grown heap hits every row alike, as bench-compare alternates builds. A row later in a round runs on a heap the rows
//      before it have grown, and right after a row whose analytics are still being inserted and merged,
//      so the order is balanced (bench/lib/balanced-order.mjs, a Williams design): over a full cycle of
//      rounds (10 for the five rows, 2 for two) every row, plain SR too, runs equally often in every
//      position and right after every other row; with rotation each row always followed the same one.
//      Each row also reports its CPU per decision (main thread, all threads; median round) and plain SR's
//      all-thread CPU over its own: the share its work allows. Every row's bodies here name one of the
//      CUSTOMERS customers, plain SR's too, so the rows differ only in the merchant's settings (a payment
//      that names its customer is the same payment with sticky routing on or off); SAME_TRAFFIC=0 sends
//      each row its own bodies as in the sequential rows (a customer only where sticky routing is on).
//      PLAIN_TWICE=1 adds a second plain SR merchant to these rounds only ("plain SR twin"):
//      an A/A row, whose share of plain SR is what the method reads when there is no difference;
//   3. every answered decision must reach the analytics (/analytics/decisions counts them);
//   4. the feedback-to-effect delay (feedback accepted → the next decision reflects it), p50/p99;
//   5. the API process's CPU per answered decision (all its threads, and its main thread alone), from
//      /proc, which moves far less from run to run than req/s on a shared machine;
//   6. with CALIBRATE=20,40,… the echo again with that many µs of synchronous work per request: what
//      share of the echo and what p99 a given per-request cost allows on this machine.
// With PROFILE_DIR=<dir> the service runs with --cpu-prof into <dir> (every thread), and the interleaved
// rounds' windows are written beside the profiles as rounds-<pid>.json: bench/profile-rounds.mjs reads
// them (each round's busy µs per request by thread, and where two rows or two sets of rounds differ).
// SR_WINDOWS=filled fills every row's success-rate windows with a bucket of outcomes before it is
// measured (bench/lib/score-windows.mjs: 92.0, 90.4 and 91.2 % for stripe, adyen and checkout), so scores
// are fractions as a live merchant's are; by default every window is empty and every gateway scores 1.
// Bounded: DURATION seconds (default 15) of load per target, FEEDBACK_SAMPLES (default 200) samples.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { decideMixBody as body } from './lib/decide-body.mjs';
import { decideMixLoad } from './lib/decide-load.mjs';
import { cpuSeconds } from './lib/proc-cpu.mjs';
import { benchMerchant, json, spawnService, spawnWorker } from './lib/spawn-service.mjs';
import { abTestRule } from './lib/ab-test-rule.mjs';
import { benchSeedCosts } from './lib/cost-step-experiment.mjs';
import { activateBenchContract } from './lib/bench-contract.mjs';
import { balancedCycle, balancedOrder } from './lib/balanced-order.mjs';
import { fillScoreWindows, filledWindowsAsked } from './lib/score-windows.mjs';
import { lowerMedian, medianInterval } from './lib/median-interval.mjs';
import { namingCustomer, seedStickyHabits } from './lib/sticky-habits.mjs';

const duration = Number(process.env.DURATION ?? 15);
const connections = Number(process.env.CONNECTIONS ?? 64);
/** Undefined: one balanced cycle of the rows measured (2f). */
const roundsAsked = process.env.ROUNDS === undefined ? undefined : Number(process.env.ROUNDS);
const roundSeconds = Number(process.env.ROUND_SECONDS ?? 4);
if (roundsAsked !== undefined && (!Number.isInteger(roundsAsked) || roundsAsked < 0))
  throw new Error(`ROUNDS takes a whole number ≥ 0; got "${process.env.ROUNDS}"`);
const samples = Number(process.env.FEEDBACK_SAMPLES ?? 200);
const calibrations = (process.env.CALIBRATE ?? '').split(',').filter(Boolean).map(Number);
if (calibrations.some((workUs) => !Number.isFinite(workUs) || workUs <= 0 || workUs > 100_000)) {
  throw new Error(`CALIBRATE takes positive µs of work per request, comma-separated (e.g. 40,60); got "${process.env.CALIBRATE}"`);
}
const multiObjective = process.env.MULTI_OBJECTIVE !== '0';
const experiment = process.env.EXPERIMENT !== '0';
const sticky = process.env.STICKY !== '0';
const customers = Number(process.env.CUSTOMERS ?? 1000);
/** SR_WINDOWS=filled: every merchant's windows full of outcomes before it is measured (bench/lib/score-windows.mjs), so scores are fractions. */
const filledWindows = filledWindowsAsked();
if (!Number.isInteger(customers) || customers < 1) throw new Error(`CUSTOMERS takes a whole number ≥ 1; got "${process.env.CUSTOMERS}"`);
const volumeCommitment = process.env.VOLUME_COMMITMENT !== '0';
/** 2f: every row's bodies name a customer, so the rows differ only in their merchant's settings. */
const sameTraffic = process.env.SAME_TRAFFIC !== '0';
/** PLAIN_TWICE=1: a second plain SR merchant in the interleaved rounds only, an A/A row: what the method reads for no difference. */
const plainTwice = process.env.PLAIN_TWICE === '1';
const mode = process.env.REDIS_URL || process.env.KAFKA_BROKERS ? 'distributed' : 'embedded';
const adminSecret = 'bench-admin-secret-0123456789abcdef';
const profileDir = process.env.PROFILE_DIR;
if (profileDir !== undefined) {
  mkdirSync(profileDir, { recursive: true });
  process.env.SERVICE_NODE_FLAGS = `--cpu-prof --cpu-prof-dir=${profileDir} ${process.env.SERVICE_NODE_FLAGS ?? ''}`;
}
/** PROFILE_DIR: each interleaved round's window, ms since the service was spawned (its profiles start then). */
const roundWindows = [];

/** The same body naming one of the bench's customers (sticky routing reads its counts). */
const withCustomer = namingCustomer(customers);

/** autocannon with the decide mix against `url`; counts 2xx answers. `customer`: every body names a customer. */
async function load(url, headers, merchant, prefix, seconds, customer = false) {
  const result = await decideMixLoad(url, headers, merchant, { connections, duration: seconds, prefix, shape: customer ? withCustomer : undefined });
  return {
    rps: result.requests.average,
    total: result.requests.total,
    ok: result['2xx'],
    errors: result.errors + result.non2xx,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
  };
}

async function spawnEcho(workUs = 0) {
  const child = spawn(process.execPath, [new URL('./lib/echo-server.mjs', import.meta.url).pathname], {
    env: { ...process.env, WORK_US: String(workUs) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = await once(child.stdout, 'data');
  return { url: `http://127.0.0.1:${String(chunk).trim()}/`, stop: () => child.kill('SIGTERM') };
}

/** CPU seconds the API process (all threads) and its main thread have used; undefined off Linux. */
function serviceCpu(pid) {
  const all = cpuSeconds(pid);
  const main = cpuSeconds(pid, pid);
  return all === undefined || main === undefined ? undefined : { all, main };
}

// 1. The ceiling.
const echo = await spawnEcho();
let ceiling;
try {
  process.stderr.write(`measuring the node:http echo ${duration}s at ${connections} connections…\n`);
  await load(echo.url, { authorization: 'Bearer warm' }, 'echo', 'warm', 3);
  ceiling = await load(echo.url, { authorization: 'Bearer bench' }, 'echo', 'echo', duration);
} finally {
  echo.stop();
}

// 2–4. The service. Distributed: the API without in-process workers, and both workers as their
// own processes on the same cores (as docs/operations.md's distributed set-up runs them).
const distributedEnv = { EMBEDDED_WORKERS: 'false', JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123456789' };
const serviceSpawnedAt = Date.now();
const service = await spawnService({ ADMIN_SECRET: adminSecret, ...(mode === 'distributed' ? distributedEnv : {}) });
const workers = mode === 'distributed' ? ['sr-windows', 'analytics-sink'].map((name) => spawnWorker(name, distributedEnv)) : [];
try {
  /** A merchant with a session (bearer token) and the bench's success-rate config. */
  const newMerchant = async (name) => (await benchMerchant(service.url, adminSecret, name)).headers;
  /** With SR_WINDOWS=filled, fills the merchant's windows (its decisions' count, which analytics counts too); else 0. */
  const fillWindows = async (name, headers) =>
    filledWindows ? await fillScoreWindows((path, payload) => json(service.url, path, payload, headers), name, body) : 0;
  /** Warm-up, then DURATION s of load with the API's CPU read around it. */
  const measure = async (name, headers, label, customer = false) => {
    process.stderr.write(`warming up ${service.url} (${mode}, ${label})…\n`);
    const warm = await load(`${service.url}/decide-gateway`, headers, name, 'warm', 3, customer);
    process.stderr.write(`measuring ${label} ${duration}s at ${connections} connections…\n`);
    const cpuBefore = serviceCpu(service.pid);
    const result = await load(`${service.url}/decide-gateway`, headers, name, 'pay', duration, customer);
    const cpuAfter = serviceCpu(service.pid);
    const perDecision = (key) =>
      cpuBefore === undefined || cpuAfter === undefined ? undefined : Math.round((1e6 * (cpuAfter[key] - cpuBefore[key])) / result.total);
    return { ...result, warmOk: warm.ok, cpu: { all: perDecision('all'), main: perDecision('main') } };
  };
  /**
   * Every answered decision must be in the analytics (none dropped, no sampling). Waiting for it also
   * lets the sink drain before the next measurement, so each row starts from the same quiet state.
   */
  const analyticsCount = async (headers, expected) => {
    let counted = 0;
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const report = await json(service.url, '/analytics/decisions?range=1h', undefined, headers);
      const kpi = JSON.stringify(report).match(/"label":"Decisions","value":"(\d+)"/);
      counted = kpi === null ? 0 : Number(kpi[1]);
      if (counted >= expected) break;
      await new Promise((resolve) => setTimeout(resolve, 500)); // polling the analytics, not synchronising a test
    }
    return counted;
  };

  const merchant = `bench_${Date.now()}`;
  const auth = await newMerchant(merchant);
  const plainFilled = await fillWindows(merchant, auth);
  /** Every row's merchant, for the interleaved rounds (2f). */
  const targets = [];
  const decide = await measure(merchant, auth, 'decide');
  targets.push({ label: 'plain SR', name: merchant, headers: auth, customer: false });
  const cpu = decide.cpu;
  const expected = plainFilled + decide.warmOk + decide.ok;
  const counted = await analyticsCount(auth, expected);

  // 2b. Cost-aware routing: same load, its own merchant with the flag on and a seed table.
  let costAware;
  /** 2b's settings on a merchant: cost-aware routing with a seed table and, unless EXPERIMENT=0, the A/B experiment. */
  const costAwareSetup = async (moMerchant, moAuth) => {
    await json(service.url, `/merchant-account/${moMerchant}/features/multi-objective-routing`, { enabled: true }, moAuth);
    await json(service.url, `/merchant-account/${moMerchant}/seed-costs`, benchSeedCosts, moAuth, 'PUT');
    if (experiment) {
      await json(service.url, `/merchant-account/${moMerchant}/features/ab-test-real-payments`, { enabled: true }, moAuth);
      const created = await json(service.url, '/routing/create', abTestRule('bench-experiment', moMerchant, { margin: 0.5 }), moAuth);
      await json(service.url, '/routing/activate', { created_by: moMerchant, routing_algorithm_id: created.rule_id }, moAuth);
    }
  };
  if (multiObjective) {
    const moMerchant = `${merchant}_mo`;
    const moAuth = await newMerchant(moMerchant);
    await costAwareSetup(moMerchant, moAuth);
    const moFilled = await fillWindows(moMerchant, moAuth);
    // A probe can draw SR hedging (the bench's 5 %), where the EV step never runs: a few tries.
    let probes = 0;
    for (let probe; probe?.multi_objective_info?.outcome !== 'COST_WON'; probes++) {
      if (probes === 10) throw new Error(`the EV post-step did not promote checkout: ${JSON.stringify(probe)}`);
      probe = await json(service.url, '/decide-gateway', body(moMerchant, `mo_probe_${probes}`, 0), moAuth);
    }
    const result = await measure(moMerchant, moAuth, experiment ? 'multi-objective + experiment decide' : 'multi-objective decide');
    targets.push({ label: experiment ? 'multi-objective + experiment' : 'multi-objective', name: moMerchant, headers: moAuth, customer: false });
    const moExpected = moFilled + probes + result.warmOk + result.ok;
    const moCounted = await analyticsCount(moAuth, moExpected);
    const savings = await json(service.url, '/analytics/cost-savings?range=1h', undefined, moAuth);
    costAware = { ...result, expected: moExpected, counted: moCounted, costWon: savings.totals.cost_won_count, stepRan: savings.totals.total_decisions };
  }

  // 2c. Sticky routing: the feature on, every customer's habit on adyen seeded through feedback first.
  /** The pinned decisions the service has counted so far (GET /metrics). */
  const pinnedSoFar = async () =>
    Number(/switchyard_sticky_routing_decisions_total\{outcome="pinned"\} (\d+)/.exec(await json(service.url, '/metrics'))?.[1] ?? 0);
  const stickyRow = async (name, label, setup) => {
    const stickyAuth = await newMerchant(name);
    await setup?.(name, stickyAuth);
    process.stderr.write(`seeding ${customers} customers' habits for ${label}…\n`);
    const seeded =
      (await seedStickyHabits((path, payload) => json(service.url, path, payload, stickyAuth), name, customers, body)) + (await fillWindows(name, stickyAuth));
    const pinnedBefore = await pinnedSoFar();
    const result = await measure(name, stickyAuth, label, true);
    targets.push({ label: label.replace(/ decide$/, ''), name, headers: stickyAuth, customer: true });
    const pinned = (await pinnedSoFar()) - pinnedBefore;
    const stickyExpected = seeded + result.warmOk + result.ok;
    return { ...result, pinned, expected: stickyExpected, counted: await analyticsCount(stickyAuth, stickyExpected) };
  };
  const stickyRows = [];
  if (sticky) {
    stickyRows.push({ key: 'sticky', label: 'sticky routing decide', ...(await stickyRow(`${merchant}_sticky`, 'sticky routing decide')) });
    if (multiObjective) {
      const label = experiment ? 'multi-objective + experiment + sticky decide' : 'multi-objective + sticky decide';
      stickyRows.push({ key: 'multi_objective_sticky', label, ...(await stickyRow(`${merchant}_mo_sticky`, label, costAwareSetup)) });
    }
  }

  // 2d. Volume commitment: same load, its own merchant with a contract the forecast finds behind pace.
  let steered;
  if (volumeCommitment) {
    const vcMerchant = `${merchant}_vc`;
    const vcAuth = await newMerchant(vcMerchant);
    await activateBenchContract(vcMerchant, (path, payload) => json(service.url, path, payload, vcAuth));
    const vcFilled = await fillWindows(vcMerchant, vcAuth);
    // As above: a hedged probe is never steered.
    let probes = 0;
    for (let probe; probe?.volume_steer_info === undefined; probes++) {
      if (probes === 10) throw new Error(`volume-commitment steering did not run: ${JSON.stringify(probe)}`);
      probe = await json(service.url, '/decide-gateway', body(vcMerchant, `vc_probe_${probes}`, 0), vcAuth);
    }
    steered = await measure(vcMerchant, vcAuth, 'volume-commitment decide');
    targets.push({ label: 'volume commitment', name: vcMerchant, headers: vcAuth, customer: false });
    // Drained like the other rows before the next measurement.
    steered.counted = await analyticsCount(vcAuth, vcFilled + probes + steered.warmOk + steered.ok);
  }

  // A/A: a second merchant with plain SR's settings, measured only in the interleaved rounds.
  if (plainTwice) {
    const twin = `${merchant}_twin`;
    const twinAuth = await newMerchant(twin);
    await fillWindows(twin, twinAuth);
    targets.push({ label: 'plain SR twin', name: twin, headers: twinAuth, customer: false });
  }

  // 2e. Plain SR again, last (unless PLAIN_AGAIN=0): the rows above run in this process after plain SR,
  // on a heap that holds every earlier row's decision contexts and on a grown chDB; measured first
  // only, plain SR has the freshest process of the run. The same row measured last brackets the others.
  const decideLast = process.env.PLAIN_AGAIN === '0' ? undefined : await measure(merchant, auth, 'decide (plain SR again, last)');

  // 2f. The rows interleaved: ROUNDS rounds, every row ROUND_SECONDS in each, in a balanced order.
  // INTERLEAVE=<label>,<label> keeps those rows (plain SR always) in 2f, e.g. to set one row beside
  // plain SR in many short rounds, each pair a few seconds apart.
  const interleaveRows = process.env.INTERLEAVE?.split(',').map((label) => label.trim());
  const unknownRows = interleaveRows?.filter((label) => !targets.some((target) => target.label === label)) ?? [];
  if (unknownRows.length > 0)
    throw new Error(`INTERLEAVE names rows this run does not have: ${unknownRows.join(', ')} (rows: ${targets.map((target) => target.label).join(', ')})`);
  const rowsInterleaved = interleaveRows === undefined ? targets : targets.filter((target, index) => index === 0 || interleaveRows.includes(target.label));
  const rounds = roundsAsked ?? balancedCycle(rowsInterleaved.length);
  const interleaved = rowsInterleaved.length < 2 || rounds === 0 ? undefined : await interleave(rowsInterleaved);
  async function interleave(targets) {
    const byRow = targets.map(() => ({ shares: [], mains: [], alls: [], rps: [] }));
    for (let round = 0; round < rounds; round++) {
      const roundRps = [];
      for (const index of balancedOrder(targets.length, round)) {
        const target = targets[index];
        process.stderr.write(`round ${round + 1} of ${rounds}: ${target.label} ${roundSeconds}s…\n`);
        const customer = sameTraffic || target.customer;
        await load(`${service.url}/decide-gateway`, target.headers, target.name, `r${round}w`, 1, customer);
        const before = serviceCpu(service.pid);
        const fromMs = Date.now() - serviceSpawnedAt;
        const result = await load(`${service.url}/decide-gateway`, target.headers, target.name, `r${round}`, roundSeconds, customer);
        const after = serviceCpu(service.pid);
        roundWindows.push({ label: target.label, round, fromMs, toMs: Date.now() - serviceSpawnedAt, requests: result.total });
        roundRps[index] = result.rps;
        byRow[index].rps.push(result.rps);
        if (before !== undefined && after !== undefined) {
          byRow[index].mains.push((1e6 * (after.main - before.main)) / result.total);
          byRow[index].alls.push((1e6 * (after.all - before.all)) / result.total);
        }
      }
      // targets[0] is plain SR: each row against the plain SR of its own round, wherever it ran in it.
      for (const [index, rps] of roundRps.entries()) byRow[index].shares.push(rps / roundRps[0]);
    }
    const median = (values) => (values.length === 0 ? undefined : lowerMedian(values));
    return targets.map((target, index) => ({
      label: target.label,
      rps: median(byRow[index].rps),
      share: median(byRow[index].shares),
      // How far the median round could move with other rounds of this run (bench/lib/median-interval.mjs).
      shareInterval: index === 0 ? undefined : medianInterval(byRow[index].shares),
      shares: byRow[index].shares,
      main: median(byRow[index].mains),
      all: median(byRow[index].alls),
    }));
  }

  const delays = [];
  for (let i = 0; i < samples; i++) {
    const gateways = [`gw_a_${i}`, `gw_b_${i}`];
    const paymentId = `fb_${i}`;
    const decision = await json(service.url, '/decide-gateway', body(merchant, paymentId, i, gateways), auth);
    const chosen = decision.decided_gateway;
    const started = performance.now();
    await json(service.url, '/update-gateway-score', { merchantId: merchant, gateway: chosen, paymentId, status: 'FAILURE' }, auth);
    for (let attempt = 0; ; attempt++) {
      const next = await json(service.url, '/decide-gateway', body(merchant, `${paymentId}_probe_${attempt}`, i, gateways), auth);
      if (next.gateway_priority_map[chosen] < 1) break;
      if (attempt > 10_000) throw new Error('feedback never took effect');
    }
    delays.push(performance.now() - started);
  }
  delays.sort((a, b) => a - b);
  const pct = (p) => (delays.length === 0 ? 'n/a' : delays[Math.min(delays.length - 1, Math.floor((p / 100) * delays.length))].toFixed(2));

  console.log(`mode: ${mode}, ${connections} connections, ${duration}s, bearer auth, three-card mix, ${filledWindows ? 'filled' : 'empty'} SR windows`);
  console.log(`node:http echo: ${ceiling.rps.toFixed(0)} req/s, p50 ${ceiling.p50} ms, p99 ${ceiling.p99} ms`);
  console.log(
    `decide: ${decide.rps.toFixed(0)} req/s = ${((100 * decide.rps) / ceiling.rps).toFixed(1)} % of the echo (${decide.total} requests, ${decide.errors} errors/non-2xx)`,
  );
  console.log(`decide latency: p50 ${decide.p50} ms, p99 ${decide.p99} ms, max ${decide.max} ms`);
  if (costAware !== undefined) {
    const cpuNote =
      costAware.cpu.all === undefined
        ? ''
        : `, API CPU ${costAware.cpu.all} µs per decision, ${costAware.cpu.main} µs main thread (plain ${cpu.all} µs, ${cpu.main} µs)`;
    console.log(
      `multi-objective${experiment ? ' + experiment' : ''} decide: ${costAware.rps.toFixed(0)} req/s = ${((100 * costAware.rps) / decide.rps).toFixed(1)} % of plain SR decide, p50 ${costAware.p50} ms, p99 ${costAware.p99} ms${cpuNote}`,
    );
    console.log(
      `multi-objective analytics: ${costAware.counted} decisions counted for ${costAware.expected} answered; the EV step ran on ${costAware.stepRan}, ${costAware.costWon} won on cost (GET /analytics/cost-savings)`,
    );
  }
  for (const row of stickyRows) {
    const cpuNote =
      row.cpu.all === undefined ? '' : `, API CPU ${row.cpu.all} µs per decision, ${row.cpu.main} µs main thread (plain ${cpu.all} µs, ${cpu.main} µs)`;
    const pinnedShare = (100 * row.pinned) / Math.max(1, row.warmOk + row.ok);
    console.log(
      `${row.label}: ${row.rps.toFixed(0)} req/s = ${((100 * row.rps) / decide.rps).toFixed(1)} % of plain SR decide, p50 ${row.p50} ms, p99 ${row.p99} ms${cpuNote}; ${pinnedShare.toFixed(1)} % pinned (${customers} customers); analytics ${row.counted} counted for ${row.expected} answered`,
    );
  }
  if (steered !== undefined) {
    const cpuNote =
      steered.cpu.all === undefined
        ? ''
        : `, API CPU ${steered.cpu.all} µs per decision, ${steered.cpu.main} µs main thread (plain ${cpu.all} µs, ${cpu.main} µs)`;
    console.log(
      `volume commitment decide: ${steered.rps.toFixed(0)} req/s = ${((100 * steered.rps) / decide.rps).toFixed(1)} % of plain SR decide, p50 ${steered.p50} ms, p99 ${steered.p99} ms${cpuNote}`,
    );
  }
  if (decideLast !== undefined) {
    const share = (row) => `${((100 * row.rps) / decideLast.rps).toFixed(1)} %`;
    const rows = [
      ...(costAware === undefined ? [] : [[`multi-objective${experiment ? ' + experiment' : ''}`, costAware]]),
      ...stickyRows.map((row) => [row.label.replace(/ decide$/, ''), row]),
      ...(steered === undefined ? [] : [['volume commitment', steered]]),
    ];
    console.log(
      `plain SR decide again, last: ${decideLast.rps.toFixed(0)} req/s (${((100 * decideLast.rps) / decide.rps).toFixed(1)} % of the first), p50 ${decideLast.p50} ms, p99 ${decideLast.p99} ms${decideLast.cpu.main === undefined ? '' : `, ${decideLast.cpu.main} µs main thread (first ${cpu.main} µs)`}; the rows as a share of it: ${rows.map(([label, row]) => `${label} ${share(row)}`).join(', ')}`,
    );
  }
  if (interleaved !== undefined) {
    const [plain, ...rows] = interleaved;
    // CPU per decision moves far less than req/s from round to round; on a CPU-bound service plain SR's
    // CPU over the row's is the throughput share the row's own work allows.
    const mainNote = (row) =>
      row.main === undefined || row.all === undefined
        ? ''
        : `, ${Math.round(row.main)} µs main thread, ${Math.round(row.all)} µs all threads${row === plain ? '' : ` (CPU share ${((100 * plain.all) / row.all).toFixed(1)} %)`}`;
    console.log(
      `interleaved, ${rounds} rounds of ${roundSeconds}s per row, in a balanced order${rounds % balancedCycle(interleaved.length) === 0 ? '' : ` (not a whole cycle of ${balancedCycle(interleaved.length)} rounds)`}, ${sameTraffic ? `every row's bodies naming one of ${customers} customers` : "each row's own bodies"} (median round): plain SR ${plain.rps.toFixed(0)} req/s${mainNote(plain)}; ${rows
        .map(
          (row) =>
            `${row.label} ${(100 * row.share).toFixed(1)} % of plain SR (95 % interval of the median ${(100 * row.shareInterval.low).toFixed(1)}–${(100 * row.shareInterval.high).toFixed(1)} %; rounds ${row.shares.map((share) => (100 * share).toFixed(0)).join('/')} %)${mainNote(row)}`,
        )
        .join('; ')}`,
    );
  }
  // At least: autocannon stops counting at the end of its duration, and the service still answers what was in flight.
  console.log(
    `analytics: ${counted} decisions counted for ${expected} answered${counted >= expected ? ' (none missing)' : ` (${expected - counted} MISSING)`}`,
  );
  console.log(`feedback-to-effect: p50 ${pct(50)} ms, p99 ${pct(99)} ms over ${samples} samples`);
  console.log(
    cpu.all === undefined ? 'API CPU per decision: n/a (no /proc)' : `API CPU per decision: ${cpu.all} µs (all threads), ${cpu.main} µs (main thread)`,
  );
  console.log(
    JSON.stringify({
      benchmark: 'decide',
      mode,
      sr_windows: filledWindows ? 'filled' : 'empty',
      connections,
      duration_s: duration,
      echo_rps: Math.round(ceiling.rps),
      decide_rps: Math.round(decide.rps),
      share_of_echo: Math.round((1000 * decide.rps) / ceiling.rps) / 1000,
      p50_ms: decide.p50,
      p99_ms: decide.p99,
      errors: decide.errors,
      analytics_counted: counted,
      analytics_expected: expected,
      cpu_us_per_decision: cpu.all,
      main_thread_cpu_us_per_decision: cpu.main,
      ...(costAware === undefined
        ? {}
        : {
            multi_objective_rps: Math.round(costAware.rps),
            multi_objective_share_of_decide: Math.round((1000 * costAware.rps) / decide.rps) / 1000,
            multi_objective_p50_ms: costAware.p50,
            multi_objective_p99_ms: costAware.p99,
            multi_objective_errors: costAware.errors,
            multi_objective_cpu_us_per_decision: costAware.cpu.all,
            multi_objective_main_thread_cpu_us_per_decision: costAware.cpu.main,
            multi_objective_with_experiment: experiment,
            multi_objective_step_ran: costAware.stepRan,
            multi_objective_cost_won: costAware.costWon,
          }),
      ...Object.fromEntries(
        stickyRows.flatMap((row) => [
          [`${row.key}_rps`, Math.round(row.rps)],
          [`${row.key}_share_of_decide`, Math.round((1000 * row.rps) / decide.rps) / 1000],
          [`${row.key}_p50_ms`, row.p50],
          [`${row.key}_p99_ms`, row.p99],
          [`${row.key}_errors`, row.errors],
          [`${row.key}_cpu_us_per_decision`, row.cpu.all],
          [`${row.key}_pinned`, row.pinned],
        ]),
      ),
      ...(steered === undefined
        ? {}
        : {
            volume_commitment_rps: Math.round(steered.rps),
            volume_commitment_share_of_decide: Math.round((1000 * steered.rps) / decide.rps) / 1000,
            volume_commitment_p50_ms: steered.p50,
            volume_commitment_p99_ms: steered.p99,
            volume_commitment_errors: steered.errors,
            volume_commitment_cpu_us_per_decision: steered.cpu.all,
            volume_commitment_main_thread_cpu_us_per_decision: steered.cpu.main,
          }),
      ...(interleaved === undefined
        ? {}
        : {
            interleaved_rounds: rounds,
            interleaved_same_traffic: sameTraffic,
            interleaved: Object.fromEntries(
              interleaved.map((row) => [
                row.label,
                {
                  rps: Math.round(row.rps),
                  share_of_plain: Math.round(1000 * row.share) / 1000,
                  ...(row.shareInterval === undefined
                    ? {}
                    : { share_of_plain_interval: [row.shareInterval.low, row.shareInterval.high].map((share) => Math.round(1000 * share) / 1000) }),
                  main_thread_cpu_us_per_decision: row.main === undefined ? undefined : Math.round(row.main),
                  cpu_us_per_decision: row.all === undefined ? undefined : Math.round(row.all),
                },
              ]),
            ),
          }),
      ...(decideLast === undefined
        ? {}
        : {
            decide_last_rps: Math.round(decideLast.rps),
            decide_last_share_of_decide: Math.round((1000 * decideLast.rps) / decide.rps) / 1000,
            decide_last_p99_ms: decideLast.p99,
            decide_last_cpu_us_per_decision: decideLast.cpu.all,
            decide_last_main_thread_cpu_us_per_decision: decideLast.cpu.main,
          }),
    }),
  );
  if (counted < expected || (costAware !== undefined && costAware.counted < costAware.expected) || stickyRows.some((row) => row.counted < row.expected)) {
    process.exitCode = 1;
  }
} finally {
  await service.stop();
  if (profileDir !== undefined) {
    // V8 wrote the profiles as the service exited; the windows say which samples are which round.
    const file = join(profileDir, `rounds-${service.pid}.json`);
    writeFileSync(file, JSON.stringify({ pid: service.pid, windows: roundWindows }));
    process.stderr.write(`profiles in ${profileDir}; rounds in ${file} (node bench/profile-rounds.mjs ${file})\n`);
  }
  await Promise.all(workers.map((worker) => worker.stop()));
}

// 6. Calibration: the echo with W µs of synchronous work per request, same load.
for (const workUs of calibrations) {
  const echoWithWork = await spawnEcho(workUs);
  try {
    process.stderr.write(`measuring the echo with ${workUs} µs of work per request…\n`);
    const result = await load(echoWithWork.url, { authorization: 'Bearer bench' }, 'echo', `work${workUs}`, duration);
    console.log(
      `echo + ${workUs} µs work/request: ${result.rps.toFixed(0)} req/s = ${((100 * result.rps) / ceiling.rps).toFixed(1)} % of the echo, p50 ${result.p50} ms, p99 ${result.p99} ms`,
    );
    console.log(
      JSON.stringify({
        benchmark: 'echo-calibration',
        work_us: workUs,
        rps: Math.round(result.rps),
        share_of_echo: Math.round((1000 * result.rps) / ceiling.rps) / 1000,
        p50_ms: result.p50,
        p99_ms: result.p99,
      }),
    );
  } finally {
    echoWithWork.stop();
  }
}
