#!/usr/bin/env node
// Compares two builds in one sitting: `make bench-compare BASE=<ref>` (or `BASE=<ref> node
// bench/bench-compare.mjs`). Builds <ref> in a scratch directory (`git archive` into
// /tmp/switchyard-compare-<sha>, node_modules linked from this tree when <ref>'s package-lock.json
// is this tree's, else `npm install` there; reused on the next run), builds the working tree, then
// runs the two ALTERNATELY, ROUNDS times (round 1 base first, round 2 working tree first, …), each
// time in a fresh `switchyard serve` (embedded, 127.0.0.1) with the same load from this script:
//   decide           POST /decide-gateway, the three-card mix, a session's bearer token, every
//                    feature of the merchant off (plain SR, the bench's SR config);
//   decide_features  the same for a merchant with multi-objective routing (seed costs), an active
//                    A/B experiment (sticky per-payment arms, sr_routing both sides, the variant
//                    cost-aware) and `ab-test-real-payments` on; skipped on a build without them;
//   decide_api_key   decide with the merchant's API key (`x-api-key`) instead of a session, as the
//                    peer's clients call it: key lookup and comparison on every request;
//   decide_sticky    decide with sticky routing on, every body naming one of CUSTOMERS (1000)
//                    customers whose habit on adyen is seeded first (decide-bench's "sticky routing");
//   decide_features_sticky  decide_features and decide_sticky together (decide-bench's
//                    "multi-objective + experiment + sticky", the row issue 35 holds to 10 % of plain SR);
//   gateway          POST /v1/chat/completions (API key, plain) to a local fake OpenAI answering at
//                    once: the plugins the LLM gateway shares with decide.
// A bare node:http echo is measured once per round (the ceiling: decide's share of it).
// Per round and side it prints req/s, p99 and the service's CPU per request: its main thread
// (`main µs`, from /proc/<pid>/task/<pid>/stat) and all its threads (`all µs`), over the measured
// window. On a shared machine trust CPU µs per request; req/s moves with whatever else runs.
// Then the medians per side and the ratios (working tree / base).
// Bounded: ROUNDS (3) × scenarios × DURATION (10) s plus a 3 s warm-up each; CONNECTIONS (64).
// SCENARIOS=decide,gateway narrows it; SKIP_BUILD=1 uses the working tree's dist/ as it is; GATEWAY_PROMPT_BYTES sizes
// the gateway's prompt (default: 'Say ping').
// MODE=inject measures decide, decide_features and decide_sticky without sockets instead (bench/lib/decide-inject.mjs:
// each build's composition root in its own process, N decisions through fastify's inject): no echo,
// no gateway or decide_api_key row, req/s is decisions/s in process; for a machine too busy for the HTTP figures.
// MODE=inject also knows decide_volume (an active volume commitment whose plan steers: row 2d); name
// it in SCENARIOS. decide_api_key, decide_sticky, decide_features_sticky and decide_volume are not in the
// default SCENARIOS. SR_WINDOWS=filled (HTTP mode) fills every decide merchant's success-rate windows
// with a bucket of outcomes first (bench/lib/score-windows.mjs), so scores are fractions as a live
// merchant's are; without it every window is empty and every gateway scores 1.
import autocannon from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decideMixBody as decideRequest } from './lib/decide-body.mjs';
import { startFakeOpenAI } from './lib/fake-openai.mjs';
import { cpuSeconds } from './lib/proc-cpu.mjs';
import { benchMerchant, json, spawnService } from './lib/spawn-service.mjs';
import { enableCostStepAndExperiment } from './lib/cost-step-experiment.mjs';
import { fillScoreWindows, filledWindowsAsked } from './lib/score-windows.mjs';
import { namingCustomer, seedStickyHabits } from './lib/sticky-habits.mjs';

const here = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const baseRef = process.env.BASE;
if (!baseRef) throw new Error('BASE=<git ref> is required (e.g. make bench-compare BASE=main)');
const rounds = Number(process.env.ROUNDS ?? 3);
const duration = Number(process.env.DURATION ?? 10);
const connections = Number(process.env.CONNECTIONS ?? 64);
const scenarios = (process.env.SCENARIOS ?? 'decide,decide_features,gateway').split(',').filter(Boolean);
/** SR_WINDOWS=filled (HTTP mode): every decide merchant's windows full of outcomes first (bench/lib/score-windows.mjs). */
const filledWindows = filledWindowsAsked();
const known = ['decide', 'decide_features', 'decide_api_key', 'decide_sticky', 'decide_features_sticky', 'gateway'];
const inject = process.env.MODE === 'inject';
/** decide-inject's FEATURES per scenario (decide_volume only in process). */
const injectFeatures = { decide: '0', decide_features: '1', decide_sticky: 'sticky', decide_features_sticky: 'all', decide_volume: 'volume' };
if (inject) known.push('decide_volume');
if (inject) scenarios.splice(0, scenarios.length, ...scenarios.filter((name) => name !== 'gateway' && name !== 'decide_api_key'));
for (const name of scenarios) if (!known.includes(name)) throw new Error(`unknown scenario ${name} (known: ${known.join(', ')})`);
const adminSecret = 'bench-admin-secret-0123456789abcdef';
const customers = Number(process.env.CUSTOMERS ?? 1000);
const log = (line) => process.stderr.write(`${line}\n`);

const git = (...args) => execFileSync('git', args, { cwd: here, encoding: 'utf8' }).trim();
const run = (command, args, cwd) => execFileSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });

/**
 * The compiled code and the runtime assets, each tree as its own build makes them: what `switchyard
 * serve` runs (the dashboard build is not needed). Builds before scripts/compile.mjs used tsc's emit.
 */
function build(root, modules) {
  if (existsSync(join(root, 'scripts/compile.mjs'))) run(process.execPath, ['scripts/compile.mjs'], root);
  else run(process.execPath, [join(modules, 'typescript/bin/tsc'), '-p', 'tsconfig.build.json'], root);
  run(process.execPath, ['scripts/copy-assets.mjs'], root);
}

function prepareBase(ref) {
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = `/tmp/switchyard-compare-${sha.slice(0, 12)}`;
  const done = join(dir, '.bench-compare-built');
  if (existsSync(done)) {
    log(`base ${ref} (${sha.slice(0, 9)}): reusing ${dir}`);
    return { label: `base ${sha.slice(0, 9)}`, root: dir, sha };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`base ${ref} (${sha.slice(0, 9)}): git archive into ${dir}`);
  execFileSync('bash', ['-c', `git archive ${sha} | tar -x -C ${dir}`], { cwd: here, stdio: 'inherit' });
  const sameLock = readFileSync(join(dir, 'package-lock.json'), 'utf8') === readFileSync(join(here, 'package-lock.json'), 'utf8');
  if (sameLock) {
    symlinkSync(realpathSync(join(here, 'node_modules')), join(dir, 'node_modules'));
    log('  package-lock.json equal: node_modules linked from this tree');
  } else {
    log('  package-lock.json differs: npm install in the scratch directory');
    run('npm', ['install', '--no-audit', '--no-fund'], dir);
  }
  log('  building (tsc + runtime assets)…');
  build(dir, join(dir, 'node_modules'));
  writeFileSync(done, `${sha}\n`);
  return { label: `base ${sha.slice(0, 9)}`, root: dir, sha };
}

const base = prepareBase(baseRef);
const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
const head = { label: `work ${git('rev-parse', '--short=9', 'HEAD')}${dirty ? '+dirty' : ''}`, root: here };
if (process.env.SKIP_BUILD !== '1') {
  log(`working tree: building (tsc + runtime assets)…`);
  build(here, join(here, 'node_modules'));
}

// ------------------------------------------------------------------ load

// GATEWAY_PROMPT_BYTES=4096 sends a prompt of that size (prose with dates, amounts and order ids, no card
// number): the guardrails' cost on a realistic prompt (issue 38), e.g. against BASE=<the commit before them>.
const promptBytes = Number(process.env.GATEWAY_PROMPT_BYTES ?? 0);
const promptSentence =
  'The merchant asked why order 2026-11-29/48213 was declined at 14:05 for 129.90 EUR, and whether a retry on the second gateway would help. ';
const chatPrompt = promptBytes > 0 ? promptSentence.repeat(Math.ceil(promptBytes / promptSentence.length)).slice(0, promptBytes) : 'Say ping';
const chatRequest = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: chatPrompt }] };

/** autocannon at CONNECTIONS for `seconds`; `bodyOf(i)` gives the i-th request's body. */
async function load(url, headers, seconds, bodyOf) {
  let counter = 0;
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json', ...headers },
    requests: [{ setupRequest: (request) => ({ ...request, body: bodyOf(counter++) }) }],
  });
  return { rps: result.requests.average, total: result.requests.total, errors: result.errors + result.non2xx, p99: result.latency.p99 };
}

async function spawnEcho() {
  const child = spawn(process.execPath, [join(here, 'bench/lib/echo-server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = await once(child.stdout, 'data');
  return { url: `http://127.0.0.1:${String(chunk).trim()}/`, stop: () => child.kill('SIGTERM') };
}

/**
 * Waits until the service's main thread is quiet (under 3 % of a core over 200 ms, at most 10 s):
 * the in-process sink finishing the previous load must not be billed to the next one.
 */
async function settle(pid) {
  const deadline = Date.now() + 10_000;
  let before = cpuSeconds(pid, pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200)); // sampling /proc, not synchronising
    const now = cpuSeconds(pid, pid);
    if (now === undefined || now - before < 0.006) return;
    before = now;
  }
}

/** A merchant with a session (bearer token) and the bench's SR config; returns the headers and its API key. */
const newMerchant = (url, name) => benchMerchant(url, adminSecret, name);

/** Multi-objective (seed costs), an active sticky A/B experiment and its feature flag; checks the cost step runs. */
async function withFeatures(url, name, headers) {
  await enableCostStepAndExperiment(url, name, headers, 'bench-experiment');
  const probe = await json(url, '/decide-gateway', decideRequest(name, 'probe_0', 0), headers);
  if (probe.multi_objective_info === undefined) throw new Error(`the cost-aware step did not run: ${JSON.stringify(probe)}`);
}

/** MODE=inject: one side of one round, each scenario in its own process (bench/lib/decide-inject.mjs). */
function measureSideInject(side, round) {
  const figures = {};
  for (const scenario of scenarios) {
    let out;
    try {
      out = execFileSync(process.execPath, [join(here, 'bench/lib/decide-inject.mjs')], {
        env: { ...process.env, ROOT: side.root, FEATURES: injectFeatures[scenario] },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      });
    } catch (error) {
      // decide-inject exits without a graceful stop once its figures are out; chDB's thread, caught in
      // an insert by that exit, can abort the process. Figures printed before that still count.
      if (typeof error.stdout !== 'string' || !error.stdout.includes('{"decisions"')) throw error;
      log(`  (${side.label} ${scenario}: its process ended with ${error.signal ?? `status ${error.status}`} after printing its figures)`);
      out = error.stdout;
    }
    const line = out
      .trim()
      .split('\n')
      .findLast((text) => text.startsWith('{"decisions"'));
    if (line === undefined) throw new Error(`no figures from decide-inject for ${side.label}`);
    const f = JSON.parse(line);
    figures[scenario] = { rps: f.rps, total: f.decisions, errors: 0, p99: undefined, mainUs: f.mainUs, allUs: f.allUs };
    log(
      `  round ${round} ${side.label.padEnd(22)} ${scenario.padEnd(16)} ${f.rps.toFixed(0).padStart(6)} decisions/s in process  main ${f.mainUs.toFixed(1).padStart(6)} µs  all ${f.allUs.toFixed(1).padStart(6)} µs`,
    );
  }
  return figures;
}

/** One side of one round: a fresh service, every scenario (warm-up, then the measured window). */
async function measureSide(side, round, fakeUrl) {
  if (inject) return measureSideInject(side, round);
  const service = await spawnService({ ADMIN_SECRET: adminSecret, OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: `${fakeUrl}/v1` }, { root: side.root });
  const figures = {};
  const stopService = () => service.stop();
  running.add(stopService);
  try {
    const stamp = `${Date.now()}_${round}`;
    for (const scenario of scenarios) {
      const name = `cmp_${scenario}_${stamp}`;
      const merchant = await newMerchant(service.url, name);
      let url = `${service.url}/decide-gateway`;
      let headers = merchant.headers;
      let bodyOf = (prefix) => (i) => JSON.stringify(decideRequest(name, `${prefix}_${i}`, i));
      if (scenario === 'decide_features' || scenario === 'decide_features_sticky') {
        try {
          await withFeatures(service.url, name, headers);
        } catch (error) {
          log(`  ${side.label}: ${scenario} not available (${String(error.message).slice(0, 160)})`);
          figures[scenario] = undefined;
          continue;
        }
      } else if (scenario === 'decide_api_key') {
        headers = { 'x-api-key': merchant.apiKey };
      }
      if (scenario === 'decide_sticky' || scenario === 'decide_features_sticky') {
        await seedStickyHabits((path, payload) => json(service.url, path, payload, merchant.headers), name, customers, decideRequest);
        const withCustomer = namingCustomer(customers);
        bodyOf = (prefix) => (i) => JSON.stringify(withCustomer(decideRequest(name, `${prefix}_${i}`, i), i));
      } else if (scenario === 'gateway') {
        url = `${service.url}/v1/chat/completions`;
        headers = { authorization: `Bearer ${merchant.apiKey}` };
        const chat = JSON.stringify(chatRequest);
        bodyOf = () => () => chat;
      }
      if (filledWindows && scenario.startsWith('decide')) {
        await fillScoreWindows((path, payload) => json(service.url, path, payload, merchant.headers), name, decideRequest);
      }
      await load(url, headers, 3, bodyOf('warm'));
      await settle(service.pid);
      const mainBefore = cpuSeconds(service.pid, service.pid);
      const allBefore = cpuSeconds(service.pid);
      const result = await load(url, headers, duration, bodyOf('pay'));
      const main = cpuSeconds(service.pid, service.pid) - mainBefore;
      const all = cpuSeconds(service.pid) - allBefore;
      figures[scenario] = { ...result, mainUs: (1e6 * main) / result.total, allUs: (1e6 * all) / result.total };
      const f = figures[scenario];
      log(
        `  round ${round} ${side.label.padEnd(22)} ${scenario.padEnd(16)} ${f.rps.toFixed(0).padStart(6)} req/s  p99 ${String(f.p99).padStart(3)} ms  main ${f.mainUs.toFixed(1).padStart(6)} µs  all ${f.allUs.toFixed(1).padStart(6)} µs${f.errors > 0 ? `  ${f.errors} ERRORS` : ''}`,
      );
    }
  } finally {
    running.delete(stopService);
    await service.stop();
  }
  return figures;
}

// ------------------------------------------------------------------ the sitting

/** The bare node:http echo under the same load: the ceiling decide's share is of. */
async function measureEcho(round) {
  const echo = await spawnEcho();
  try {
    await load(echo.url, {}, 2, () => '{"warm":true}');
    const e = await load(echo.url, {}, duration, (i) => JSON.stringify(decideRequest('echo', `echo_${i}`, i)));
    log(`  round ${round} ${'node:http echo'.padEnd(22)} ${''.padEnd(16)} ${e.rps.toFixed(0).padStart(6)} req/s  p99 ${String(e.p99).padStart(3)} ms`);
    return e.rps;
  } finally {
    echo.stop();
  }
}

/** Services of an interrupted run go with it. */
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const stop of running) stop();
    process.exit(130);
  });
}

const fake = await startFakeOpenAI({ delayMs: 0 });
const results = { base: [], head: [] };
const echoes = [];
try {
  for (let round = 1; round <= rounds; round++) {
    if (!inject) echoes.push(await measureEcho(round));
    const order = round % 2 === 1 ? ['base', 'head'] : ['head', 'base'];
    for (const which of order) results[which].push(await measureSide(which === 'base' ? base : head, round, fake.url));
  }
} finally {
  await fake.close?.();
}

const median = (values) => {
  const sorted = values.filter((v) => v !== undefined && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const fmt = (v, digits = 0) => (v === undefined ? 'n/a' : v.toFixed(digits));
const ratio = (h, b) => (h === undefined || b === undefined || b === 0 ? undefined : h / b);

const echoMedian = median(echoes);
console.log(
  `\nbench-compare ${new Date().toISOString()}: ${base.label} vs ${head.label}; ${rounds} rounds × ${duration} s, ${connections} connections, embedded, 127.0.0.1`,
);
console.log(
  `load average at the end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} (${(await import('node:os')).cpus().length} cores)`,
);
console.log(`node:http echo per round: ${echoes.map((e) => e.toFixed(0)).join(' / ')} req/s`);
console.log('\nper round (base | work):');
for (const scenario of scenarios) {
  for (let r = 0; r < rounds; r++) {
    const b = results.base[r]?.[scenario];
    const h = results.head[r]?.[scenario];
    const cell = (f) =>
      f === undefined ? 'n/a'.padEnd(40) : `${fmt(f.rps).padStart(6)} req/s p99 ${String(f.p99 ?? '-').padStart(3)} ms ${fmt(f.mainUs, 1).padStart(6)} µs main`;
    console.log(
      `  ${scenario.padEnd(16)} round ${r + 1}: ${cell(b)} | ${cell(h)}  ratio req/s ${fmt(ratio(h?.rps, b?.rps), 3)}  main µs ${fmt(ratio(h?.mainUs, b?.mainUs), 3)}`,
    );
  }
}
console.log('\nmedians (base → work, ratio work/base):');
const summary = {
  benchmark: 'bench-compare',
  base: base.sha,
  work: head.label,
  rounds,
  duration_s: duration,
  connections,
  echo_rps: Math.round(echoMedian ?? 0),
  scenarios: {},
};
for (const scenario of scenarios) {
  const pick = (which, key) => median(results[which].map((r) => r[scenario]?.[key]));
  const row = {};
  for (const key of ['rps', 'p99', 'mainUs', 'allUs']) row[key] = { base: pick('base', key), work: pick('head', key) };
  const share = (v) => (v === undefined || echoMedian === undefined ? undefined : (100 * v) / echoMedian);
  console.log(
    `  ${scenario.padEnd(16)} req/s ${fmt(row.rps.base)} → ${fmt(row.rps.work)} (${fmt(ratio(row.rps.work, row.rps.base), 3)}; ${fmt(share(row.rps.base), 1)} → ${fmt(share(row.rps.work), 1)} % of the echo)` +
      `  p99 ${fmt(row.p99.base)} → ${fmt(row.p99.work)} ms` +
      `  main-thread CPU ${fmt(row.mainUs.base, 1)} → ${fmt(row.mainUs.work, 1)} µs/req (${fmt(ratio(row.mainUs.work, row.mainUs.base), 3)})` +
      `  all threads ${fmt(row.allUs.base, 1)} → ${fmt(row.allUs.work, 1)} µs/req`,
  );
  summary.scenarios[scenario] = Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, { base: v.base && Math.round(v.base * 10) / 10, work: v.work && Math.round(v.work * 10) / 10 }]),
  );
}
console.log(JSON.stringify(summary));
