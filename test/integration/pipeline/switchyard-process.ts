import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const cliEntry = join(root, 'dist/cli/main.js');
const sourceDirs = ['src', 'api', 'workers', 'cli', 'schemas'];
const run = promisify(execFile);

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, await newestMtime(path));
    else if (/\.(ts|json|sql|lua|txt)$/.test(entry.name)) newest = Math.max(newest, (await stat(path)).mtimeMs);
  }
  return newest;
}

/** Whether dist/cli/main.js is at least as new as every source. */
async function distIsFresh(): Promise<boolean> {
  const built = await stat(cliEntry).then(
    (info) => info.mtimeMs,
    () => 0,
  );
  let newestSource = 0;
  for (const dir of sourceDirs) newestSource = Math.max(newestSource, await newestMtime(join(root, dir)));
  return built >= newestSource;
}

/** Held (a directory: mkdir is atomic) by the one test process rebuilding dist/; holds its pid. */
const buildLock = join(root, '.run', 'dist-build.lock');

/** Whether the lock's holder has exited without removing it (a killed test run). */
async function lockAbandoned(): Promise<boolean> {
  const pid = Number(await readFile(join(buildLock, 'pid'), 'utf8').catch(() => ''));
  if (!Number.isInteger(pid) || pid <= 0) {
    // Just taken (the pid not written yet), or left by a process killed in between: old means the latter.
    const taken = await stat(buildLock).then(
      (info) => info.mtimeMs,
      () => Date.now(),
    );
    return Date.now() - taken > 60_000;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * Rebuilds dist/ (`npm run build`) when any source is newer than dist/cli/main.js, so a child
 * `switchyard` process runs the code under test. A failed build fails the test with tsc's output.
 * Test files run side by side: one of them builds, under a lock, while the others wait for it and
 * then find dist/ fresh (two builds writing dist/ at once, or a child started from a half-written
 * dist/, fail at random).
 */
export async function ensureDistBuilt(): Promise<void> {
  if (await distIsFresh()) return;
  await mkdir(join(root, '.run'), { recursive: true });
  for (;;) {
    try {
      await mkdir(buildLock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (await lockAbandoned()) {
      await rm(buildLock, { recursive: true, force: true });
      continue;
    }
    // Another process is building: no event crosses processes, so look again shortly.
    await delay(500);
  }
  try {
    await writeFile(join(buildLock, 'pid'), String(process.pid));
    if (await distIsFresh()) return;
    await run('npm', ['run', 'build'], { cwd: root, timeout: 240_000 }).catch((error: unknown) => {
      const output = error as { stdout?: string; stderr?: string };
      throw new Error(`npm run build failed:\n${output.stdout ?? ''}${output.stderr ?? ''}`, { cause: error });
    });
  } finally {
    await rm(buildLock, { recursive: true, force: true });
  }
}

export interface LogLine {
  readonly level: number;
  readonly msg?: string;
  readonly [field: string]: unknown;
}

/** A `node dist/cli/main.js <args>` child whose JSON log lines (stdout) are parsed as they come. */
export interface SwitchyardProcess {
  readonly child: ChildProcess;
  readonly lines: LogLine[];
  /** Resolves with the first line whose msg starts with `prefix`; rejects if the process exits first. */
  once(prefix: string): Promise<LogLine>;
  /** As once(), but only for a line logged after this call. */
  next(prefix: string): Promise<LogLine>;
  count(prefix: string): number;
  /** Resolves with the exit code (or signal) once the process is gone. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` and waits for the exit. */
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnSwitchyard(args: readonly string[], env: Readonly<Record<string, string>>): SwitchyardProcess {
  // The child's environment is the test's plus its namespace: PATH and friends must survive.
  const child = spawn(process.execPath, [cliEntry, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: LogLine[] = [];
  const waiters: { prefix: string; resolve: (line: LogLine) => void; reject: (error: Error) => void }[] = [];
  let stderr = '';
  let exitState: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const matches = (line: LogLine, prefix: string): boolean => typeof line.msg === 'string' && line.msg.startsWith(prefix);

  child.stderr!.setEncoding('utf8').on('data', (text: string) => {
    stderr = (stderr + text).slice(-8192);
  });
  createInterface({ input: child.stdout! }).on('line', (text) => {
    if (!text.startsWith('{')) return;
    const line = JSON.parse(text) as LogLine;
    lines.push(line);
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (matches(line, waiters[i]!.prefix)) waiters.splice(i, 1)[0]!.resolve(line);
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      exitState = { code, signal };
      for (const waiter of waiters.splice(0)) {
        waiter.reject(new Error(`switchyard ${args.join(' ')} exited (${code ?? signal}) before logging "${waiter.prefix}"\n${stderr}`));
      }
      resolve(exitState);
    });
  });
  function future(prefix: string): Promise<LogLine> {
    if (exitState !== undefined) return Promise.reject(new Error(`switchyard ${args.join(' ')} already exited\n${stderr}`));
    return new Promise((resolve, reject) => waiters.push({ prefix, resolve, reject }));
  }
  return {
    child,
    lines,
    exited,
    once(prefix) {
      const found = lines.find((line) => matches(line, prefix));
      if (found !== undefined) return Promise.resolve(found);
      return future(prefix);
    },
    next: future,
    count: (prefix) => lines.filter((line) => matches(line, prefix)).length,
    async kill(signal) {
      if (exitState === undefined) child.kill(signal);
      return exited;
    },
  };
}
