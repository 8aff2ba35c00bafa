import { readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { afterAll } from 'vitest';

/**
 * Every test file's CPU time, for the end-of-run report (issue 35: on two cores the suite is
 * CPU-bound, so the wall time of a file says how long it waited as much as what it cost). Set as a
 * setup file of every project, so it starts counting before the test file is imported and stops in
 * the file's last afterAll; scripts/vitest-json-reporter.mjs copies the figures from the file's meta.
 *
 * - `ownMs`: this process's CPU (all its threads) for a file in a process of its own (the forks
 *   pool), or this thread's alone for a file in a worker thread shared with others (the threads
 *   pool, where the process also runs vitest itself);
 * - `childrenMs`: the child processes the file started and waited for (a CLI, a service, the
 *   fuzzer), from Linux's /proc/self/stat; absent in a worker thread (the process's children there
 *   are vitest's forks) and off Linux. Servers the file started as daemons are not counted.
 */
export interface FileCpu {
  readonly ownMs: number;
  readonly childrenMs?: number;
}

declare module 'vitest' {
  interface TaskMeta {
    fileCpu?: FileCpu;
  }
}

/** Linux reports cutime and cstime (fields 16 and 17 of /proc/<pid>/stat) in USER_HZ, 100 per second. */
const ticksPerSecond = 100;

function ownMicros(): number {
  const usage = isMainThread ? process.cpuUsage() : process.threadCpuUsage();
  return usage.user + usage.system;
}

/** The CPU of this process's waited-for children, in ms; undefined where it cannot be read. */
function childrenMillis(): number | undefined {
  if (!isMainThread || process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The fields after the command name (which may hold spaces) start at its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state), so field N is fields[N - 3].
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

const ownAtStart = ownMicros();
const childrenAtStart = childrenMillis();

afterAll((suite) => {
  const childrenNow = childrenMillis();
  const ownMs = Math.round((ownMicros() - ownAtStart) / 1000);
  suite.meta.fileCpu =
    childrenNow === undefined || childrenAtStart === undefined ? { ownMs } : { ownMs, childrenMs: Math.round(childrenNow - childrenAtStart) };
});
