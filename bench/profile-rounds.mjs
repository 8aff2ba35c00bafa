#!/usr/bin/env node
// Reads a decide-bench run made with PROFILE_DIR=<dir>: `node bench/profile-rounds.mjs <dir>/rounds-<pid>.json`.
// Prints every interleaved round's busy µs per request on each of the service's threads (thread 0 is
// the main one; the next are the analytics threads, in the order they started), so a round the
// background slowed shows beside the ones it did not. Then where the rows differ, per request:
// with A and B unset, each row against plain SR (ROUNDS=3,4,… keeps those rounds only); with
// A=<rounds> B=<rounds> (and LABEL, default row 2c), one row in rounds A against the same row in
// rounds B. THREAD (0) picks the thread, TOP (25) the lines; self time first, then with callees.
// Profiles' sample times are matched to the windows with a 200 ms margin at each end.
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { eachSample, frameName } from './lib/profile-frame.mjs';

const roundsFile = process.argv[2];
if (roundsFile === undefined) throw new Error('usage: node bench/profile-rounds.mjs <PROFILE_DIR>/rounds-<pid>.json');
const { pid, windows } = JSON.parse(readFileSync(roundsFile, 'utf8'));
if (windows.length === 0) throw new Error(`${roundsFile} has no interleaved rounds (ROUNDS=0?)`);
const dir = dirname(roundsFile);
const margin = 200;
const top = Number(process.env.TOP ?? 25);
const roundList = (value) => (value === undefined ? undefined : new Set(value.split(',').map(Number)));

// One profile per thread: CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile.
const threadFiles = readdirSync(dir)
  .map((name) => ({ name, match: new RegExp(`^CPU\\.\\d+\\.\\d+\\.${pid}\\.(\\d+)\\.\\d+\\.cpuprofile$`).exec(name) }))
  .filter(({ match }) => match !== null)
  .sort((a, b) => Number(a.match[1]) - Number(b.match[1]));
if (threadFiles.length === 0) throw new Error(`no profiles of ${pid} in ${dir}`);
const profiles = threadFiles.map(({ name }) => JSON.parse(readFileSync(join(dir, name), 'utf8')));
// Every thread's timestamps share one clock; the main thread's profile starts with the process.
const origin = profiles[0].startTime;

/** Calls `visit(windowIndex, sampleNodeId, µs)` for every sample of `profile` inside a window. */
function eachSampleInWindows(profile, visit) {
  eachSample(profile, (at, id, us) => {
    const ms = (at - origin) / 1000;
    const index = windows.findIndex((w) => ms >= w.fromMs + margin && ms <= w.toMs - margin);
    if (index >= 0) visit(index, id, us);
  });
}

// 1. Every round, every thread: busy µs per request.
const busy = profiles.map((profile) => {
  const idle = new Set(profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id));
  const perWindow = windows.map(() => 0);
  eachSampleInWindows(profile, (index, id, us) => {
    if (!idle.has(id)) perWindow[index] += us;
  });
  return perWindow;
});
console.log(`busy µs per request, by thread (${threadFiles.map(({ match }) => match[1]).join(', ')}), ${basename(roundsFile)}`);
for (const [index, w] of windows.entries()) {
  const cells = busy.map((perWindow) => (perWindow[index] / w.requests).toFixed(1).padStart(7)).join('');
  console.log(`round ${String(w.round).padStart(3)}  ${w.label.padEnd(38)} ${String(w.requests).padStart(7)} requests ${cells}`);
}

// 2. Where two sets of windows differ, per request of each set.
const a = roundList(process.env.A);
const b = roundList(process.env.B);
const only = roundList(process.env.ROUNDS);
const label = process.env.LABEL ?? 'multi-objective + experiment + sticky';
const [plain] = windows.map((w) => w.label);
const sets =
  a !== undefined && b !== undefined
    ? [
        { name: `${label}, rounds ${process.env.A}`, keep: (w) => w.label === label && a.has(w.round) },
        { name: `${label}, rounds ${process.env.B}`, keep: (w) => w.label === label && b.has(w.round) },
      ]
    : [...new Set(windows.map((w) => w.label))]
        .filter((row) => row !== plain)
        .flatMap((row) => [
          { name: row, keep: (w) => w.label === row && (only === undefined || only.has(w.round)) },
          { name: plain, keep: (w) => w.label === plain && (only === undefined || only.has(w.round)) },
        ]);
const profile = profiles[Number(process.env.THREAD ?? 0)];
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
for (let pair = 0; pair < sets.length; pair += 2) {
  const [first, second] = [sets[pair], sets[pair + 1]];
  const sums = [first, second].map(() => ({ self: new Map(), total: new Map(), requests: 0 }));
  for (const w of windows) for (const [k, set] of [first, second].entries()) if (set.keep(w)) sums[k].requests += w.requests;
  eachSampleInWindows(profile, (index, id, us) => {
    for (const [k, set] of [first, second].entries()) {
      if (!set.keep(windows[index])) continue;
      const name = frameName(byId.get(id).callFrame);
      sums[k].self.set(name, (sums[k].self.get(name) ?? 0) + us);
      // With callees: each function once per sample, however deep it recurses.
      const seen = new Set();
      for (let at = id; at !== undefined; at = parentOf.get(at)) {
        const caller = frameName(byId.get(at).callFrame);
        if (seen.has(caller)) continue;
        seen.add(caller);
        sums[k].total.set(caller, (sums[k].total.get(caller) ?? 0) + us);
      }
    }
  });
  const busyOf = (k) => [...sums[k].self].reduce((sum, [name, us]) => (name.startsWith('(idle)') ? sum : sum + us), 0) / Math.max(1, sums[k].requests);
  console.log(`\nbusy µs per request on thread ${process.env.THREAD ?? 0}: [${first.name}] ${busyOf(0).toFixed(1)}, [${second.name}] ${busyOf(1).toFixed(1)}`);
  for (const kind of ['self', 'total']) {
    console.log(
      `\n${kind === 'self' ? 'self' : 'with callees'} µs per request on thread ${process.env.THREAD ?? 0}: [${first.name}] minus [${second.name}] (then each):`,
    );
    const per = (k, name) => (sums[k][kind].get(name) ?? 0) / Math.max(1, sums[k].requests);
    const names = [...new Set([...sums[0][kind].keys(), ...sums[1][kind].keys()])];
    names.sort((x, y) => Math.abs(per(0, y) - per(1, y)) - Math.abs(per(0, x) - per(1, x)));
    for (const name of names.slice(0, top)) {
      console.log(
        `${(per(0, name) - per(1, name)).toFixed(2).padStart(7)}  ${per(0, name).toFixed(2).padStart(7)} | ${per(1, name).toFixed(2).padStart(7)}  ${name}`,
      );
    }
  }
}
