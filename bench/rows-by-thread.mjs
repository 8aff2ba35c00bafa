#!/usr/bin/env node
// Row 2c beside plain SR in ONE service, by thread: `switchyard serve` (embedded, 127.0.0.1), a plain SR
// merchant and a row-2c merchant (multi-objective with seed costs, an active A/B experiment, sticky
// routing with CUSTOMERS (1000) customers' habits seeded), a 3 s warm-up of each, then ROUNDS (16)
// pairs of ROUND_SECONDS (3) rounds of decide-bench's three-card mix at CONNECTIONS (64), the pair's
// order alternating. Every body names one of the customers, plain SR's too, so the rows differ only in
// their merchant's settings. Per round it reads /proc around the load: the CPU of every thread group
// (thread-cpu.mjs's grouping), the main thread's user and system time apart, and the main thread's
// context switches. Prints, per figure, each row's median round and the median of the pairs'
// differences (row 2c minus plain SR, the same pair's rounds), so a machine that slows for a while
// moves both sides of a difference. CUSTOMERS=10 keeps sticky routing's records few enough to stay in
// the caches between decisions: its difference from the default is what the records' cache misses cost.
// SR_WINDOWS=filled fills both merchants' success-rate windows with a bucket of outcomes first
// (bench/lib/score-windows.mjs), so scores are fractions as a live merchant's are.
// A thread that ends during a round (ClickHouse's pools start and stop theirs) takes its CPU out of its
// group, so the groups need not add up to all threads. Linux only.
// PERF=1 also samples the main thread with Linux perf in every round (bench/lib/perf-symbols.mjs; the
// service runs with --perf-basic-prof so its JavaScript is named) and prints the PERF_TOP (30) symbols
// whose µs per decision differ most between the rows: V8's builtins, the runtime and the kernel
// apart from the JavaScript that called them.
import { rmSync } from 'node:fs';
import { enableCostStepAndExperiment } from './lib/cost-step-experiment.mjs';
import { decideMixBody } from './lib/decide-body.mjs';
import { decideMixLoad } from './lib/decide-load.mjs';
import { lowerMedian } from './lib/median-interval.mjs';
import { contextSwitches, cpuSeconds, threadGroupCpuSeconds, threadUserSystemSeconds } from './lib/proc-cpu.mjs';
import { addSamples, assertPerfAvailable, perfSampleMicros, recordThread, symbolSamples } from './lib/perf-symbols.mjs';
import { fillScoreWindows, filledWindowsAsked } from './lib/score-windows.mjs';
import { namingCustomer, seedStickyHabits } from './lib/sticky-habits.mjs';
import { benchMerchant, json, spawnService } from './lib/spawn-service.mjs';

const rounds = Number(process.env.ROUNDS ?? 16);
const roundSeconds = Number(process.env.ROUND_SECONDS ?? 3);
const connections = Number(process.env.CONNECTIONS ?? 64);
const customers = Number(process.env.CUSTOMERS ?? 1000);
/** SR_WINDOWS=filled: both merchants' windows full of outcomes first (bench/lib/score-windows.mjs), so scores are fractions. */
const filledWindows = filledWindowsAsked();
if (![rounds, roundSeconds, connections, customers].every((value) => Number.isInteger(value) && value >= 1)) {
  throw new Error('ROUNDS, ROUND_SECONDS, CONNECTIONS and CUSTOMERS take a whole number ≥ 1');
}
const perfTop = Number(process.env.PERF_TOP ?? 30);
if (!['0', '1', undefined].includes(process.env.PERF)) throw new Error(`PERF takes 1 (sample the main thread with Linux perf) or 0; got "${process.env.PERF}"`);
const perfOn = process.env.PERF === '1';
if (perfOn) {
  if (!Number.isInteger(perfTop) || perfTop < 1) throw new Error('PERF_TOP takes a whole number ≥ 1');
  assertPerfAvailable();
  process.env.SERVICE_NODE_FLAGS = `--perf-basic-prof ${process.env.SERVICE_NODE_FLAGS ?? ''}`;
}
const adminSecret = 'bench-admin-secret-0123456789abcdef';
const stamp = Date.now();

/** What one round cost per answered decision: µs of CPU by figure (preemptions per 1,000 decisions). */
function roundFigures(before, after, requests) {
  const perDecision = (seconds) => (seconds * 1e6) / requests;
  const figures = new Map([
    ['all threads', perDecision(after.all - before.all)],
    ['main: user', perDecision(after.main.user - before.main.user)],
    ['main: system', perDecision(after.main.system - before.main.system)],
    ['main: preempted per 1,000', ((after.switches.involuntary - before.switches.involuntary) * 1000) / requests],
  ]);
  for (const [group, seconds] of after.groups) {
    if (group !== 'MainThread') figures.set(group, perDecision(seconds - (before.groups.get(group) ?? 0)));
  }
  return figures;
}

function snapshot(pid) {
  const all = cpuSeconds(pid);
  const main = threadUserSystemSeconds(pid, pid);
  const switches = contextSwitches(pid, pid);
  if (all === undefined || main === undefined || switches === undefined) throw new Error('rows-by-thread reads /proc: Linux only');
  return { all, main, switches, groups: threadGroupCpuSeconds(pid) };
}

const service = await spawnService({ ADMIN_SECRET: adminSecret });
try {
  const plain = { name: `plain_${stamp}`, label: 'plain SR' };
  const row = { name: `row2c_${stamp}`, label: 'row 2c' };
  for (const target of [plain, row]) target.headers = (await benchMerchant(service.url, adminSecret, target.name)).headers;
  await enableCostStepAndExperiment(service.url, row.name, row.headers, 'rows-by-thread-experiment');
  await seedStickyHabits((path, payload) => json(service.url, path, payload, row.headers), row.name, customers, decideMixBody);
  if (filledWindows)
    for (const target of [plain, row]) await fillScoreWindows((path, payload) => json(service.url, path, payload, target.headers), target.name, decideMixBody);
  const shape = namingCustomer(customers);
  const run = (target, prefix, duration) =>
    decideMixLoad(`${service.url}/decide-gateway`, target.headers, target.name, { connections, duration, prefix, shape });
  for (const target of [plain, row]) await run(target, 'warm', 3);

  /** Per round, per row: figure → µs per decision. */
  const measured = { [plain.label]: [], [row.label]: [] };
  const rates = { [plain.label]: [], [row.label]: [] };
  /** PERF=1: per row, the main thread's samples by symbol over every round, and the decisions they answered. */
  const sampled = { [plain.label]: { samples: new Map(), requests: 0 }, [row.label]: { samples: new Map(), requests: 0 } };
  const recordingFile = `/tmp/rows-by-thread-${process.pid}.perf.data`;
  for (let round = 0; round < rounds; round += 1) {
    process.stderr.write(`round ${round + 1} of ${rounds}…\n`);
    for (const target of round % 2 === 0 ? [plain, row] : [row, plain]) {
      const recording = perfOn ? recordThread(service.pid, recordingFile) : undefined;
      const before = snapshot(service.pid);
      let result;
      try {
        result = await run(target, `r${round}`, roundSeconds);
      } finally {
        await recording?.stop();
      }
      const after = snapshot(service.pid);
      if (recording !== undefined) {
        addSamples(sampled[target.label].samples, symbolSamples(recordingFile));
        sampled[target.label].requests += result.requests.total;
      }
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.label}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
      measured[target.label].push(roundFigures(before, after, result.requests.total));
      rates[target.label].push(result.requests.average);
    }
  }

  const figures = new Set([...measured[plain.label], ...measured[row.label]].flatMap((round) => [...round.keys()]));
  const summary = {};
  console.log(
    `${customers} customers, ${filledWindows ? 'filled' : 'empty'} SR windows, ${rounds} pairs of ${roundSeconds} s rounds (median round; median of the pairs' differences)`,
  );
  const rateShare = lowerMedian(rates[row.label].map((rps, index) => rps / rates[plain.label][index]));
  console.log(
    `${'req/s'.padEnd(26)} ${lowerMedian(rates[plain.label]).toFixed(0).padStart(8)} ${lowerMedian(rates[row.label]).toFixed(0).padStart(8)}   row 2c ${(rateShare * 100).toFixed(1)} % of plain SR`,
  );
  console.log(`${'µs per decision'.padEnd(26)} ${'plain SR'.padStart(8)} ${'row 2c'.padStart(8)} ${'row 2c − plain SR'.padStart(18)}`);
  for (const figure of figures) {
    const of = (label) => measured[label].map((round) => round.get(figure) ?? 0);
    const plainMedian = lowerMedian(of(plain.label));
    const rowMedian = lowerMedian(of(row.label));
    const difference = lowerMedian(of(row.label).map((value, index) => value - (of(plain.label)[index] ?? 0)));
    if (Math.abs(plainMedian) + Math.abs(rowMedian) < 0.2) continue;
    summary[figure] = { plain: Math.round(plainMedian * 10) / 10, row2c: Math.round(rowMedian * 10) / 10, difference: Math.round(difference * 10) / 10 };
    console.log(`${figure.padEnd(26)} ${plainMedian.toFixed(1).padStart(8)} ${rowMedian.toFixed(1).padStart(8)} ${signed(difference, 1).padStart(18)}`);
  }
  const bySymbol = perfOn ? printSymbols(sampled[plain.label], sampled[row.label]) : undefined;
  console.log(
    JSON.stringify({
      benchmark: 'rows-by-thread',
      customers,
      sr_windows: filledWindows ? 'filled' : 'empty',
      rounds,
      round_seconds: roundSeconds,
      row2c_share_of_plain: Math.round(rateShare * 1000) / 1000,
      figures: summary,
      ...(bySymbol === undefined ? {} : { main_thread_by_symbol: bySymbol }),
    }),
  );
} finally {
  await service.stop();
  if (perfOn) rmSync(`/tmp/perf-${service.pid}.map`, { force: true });
}

/** PERF=1's table: the main thread's µs per decision by symbol, the PERF_TOP that differ most (row 2c − plain SR); returns them for the JSON line. */
function printSymbols(plainSampled, rowSampled) {
  const micros = ({ samples, requests }, symbol) => ((samples.get(symbol) ?? 0) * perfSampleMicros) / requests;
  const total = ({ samples, requests }) => ([...samples.values()].reduce((sum, count) => sum + count, 0) * perfSampleMicros) / requests;
  const symbols = [...new Set([...plainSampled.samples.keys(), ...rowSampled.samples.keys()])];
  const differences = symbols.map((symbol) => ({ symbol, plain: micros(plainSampled, symbol), row2c: micros(rowSampled, symbol) }));
  differences.sort((a, b) => Math.abs(b.row2c - b.plain) - Math.abs(a.row2c - a.plain));
  const top = differences.slice(0, perfTop);
  console.log(`main thread by symbol (perf, every round's samples): µs per decision, the ${top.length} that differ most`);
  const line = (plain, row2c, symbol) => `${signed(row2c - plain, 2).padStart(7)} ${plain.toFixed(2).padStart(8)} ${row2c.toFixed(2).padStart(7)}  ${symbol}`;
  console.log(`${'extra'.padStart(7)} ${'plain SR'.padStart(8)} ${'row 2c'.padStart(7)}  symbol`);
  console.log(line(total(plainSampled), total(rowSampled), '(all symbols)'));
  for (const { symbol, plain, row2c } of top) console.log(line(plain, row2c, symbol));
  return top.map(({ symbol, plain, row2c }) => ({ symbol, plain: Math.round(plain * 100) / 100, row2c: Math.round(row2c * 100) / 100 }));
}

function signed(value, digits) {
  return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;
}
