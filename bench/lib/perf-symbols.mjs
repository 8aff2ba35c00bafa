// One thread's CPU by symbol, sampled by Linux perf (Debian's linux-perf) on its software clock: V8's
// builtins (Map lookups, JSON, inline-cache misses), the runtime, libc and the kernel are named apart
// from the JavaScript functions, where the inspector's CPU profile charges a builtin to the function
// that called it. JavaScript frames are named from the perf map a service started with
// --perf-basic-prof writes (/tmp/perf-<pid>.map).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { frameFile } from './profile-frame.mjs';

/** CPU time between two samples, in µs: perf's cpu-clock event counts nanoseconds, so a period is exact (no frequency to infer). */
export const perfSampleMicros = 100;

/** Throws a clear error when the perf tool is not installed or cannot sample this machine. */
export function assertPerfAvailable() {
  const probe = spawnSync('perf', ['stat', '-e', 'cpu-clock', 'true'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) {
    throw new Error(`PERF=1 needs Linux perf (Debian's linux-perf) able to sample: ${probe.error?.message ?? probe.stderr.trim()}`);
  }
}

/**
 * Starts sampling thread `tid` into `file`, every {@link perfSampleMicros} µs of its CPU time.
 * `stop()` ends the recording and resolves once perf has written the file.
 */
export function recordThread(tid, file) {
  const perf = spawn('perf', ['record', '-q', '-e', 'cpu-clock', '-c', String(perfSampleMicros * 1000), '-t', String(tid), '-o', file], { stdio: 'ignore' });
  const exited = new Promise((resolve, reject) => {
    perf.once('error', reject);
    perf.once('exit', resolve);
  });
  return {
    async stop() {
      perf.kill('SIGINT');
      await exited;
    },
  };
}

/** The samples of a recording by symbol (see {@link parsePerfReport}); deletes the recording. */
export function symbolSamples(file) {
  const report = execFileSync('perf', ['report', '-i', file, '--sort', 'sym', '--stdio', '-n'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  rmSync(file, { force: true });
  return parsePerfReport(report);
}

/**
 * `perf report --sort sym --stdio -n` as symbol → samples. A JavaScript frame from the perf map
 * (`JS:*'name file:///…/dist/src/x.js:12:3`, `*` optimised, `~` or `+` not) keeps its name and its
 * path from `dist/`, `node_modules/` or `node:` on, so a function's tiers add up and the figures read
 * the same from any checkout. Lines that are not a symbol's (comments, blanks) are skipped.
 */
export function parsePerfReport(text) {
  const samples = new Map();
  for (const line of text.split('\n')) {
    const match = /^\s*[\d.]+%\s+(\d+)\s+\[[^\]]+\]\s+(.+?)\s*$/.exec(line);
    if (match === null) continue;
    const symbol = symbolName(match[2]);
    samples.set(symbol, (samples.get(symbol) ?? 0) + Number(match[1]));
  }
  return samples;
}

/** A perf map's JavaScript frame named as the profile benches name a frame (profile-frame.mjs); any other symbol as it is. */
function symbolName(raw) {
  const js = /^JS:[*~+^]?'?(.*)$/.exec(raw);
  if (js === null) return raw;
  const [name, ...rest] = js[1].split(' ');
  return `${name === '' ? '(anonymous)' : name} ${frameFile({ url: rest.join(' ') })}`.trim();
}

/** Adds `from`'s samples into `into`. */
export function addSamples(into, from) {
  for (const [symbol, count] of from) into.set(symbol, (into.get(symbol) ?? 0) + count);
}
