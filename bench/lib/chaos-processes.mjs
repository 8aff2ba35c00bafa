// Switchyard processes for the chaos bench: `serve` replicas on fixed loopback ports and workers,
// each with its own data dir (its event spool survives a SIGKILL and is replayed by the restart),
// logs appended to a file under the run dir. Each can be SIGKILLed and started again, or
// SIGSTOPped and SIGCONTed.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const root = new URL('../..', import.meta.url).pathname;

/**
 * `name` is the instance (`api-1`, `generation-2`); `args` the CLI arguments; `port` is set for a
 * `serve` replica (ready = GET /health/ready answers 200), a worker is ready at its 'worker running'
 * line. start() resolves when ready; kill() SIGKILLs and awaits the exit.
 */
export function switchyardProcess({ name, args, env, port, runDir }) {
  const dataDir = join(runDir, 'data', name);
  mkdirSync(dataDir, { recursive: true });
  const log = createWriteStream(join(runDir, `${name}.log`), { flags: 'a' });
  let child;
  let exited = Promise.resolve();
  let starts = 0;

  async function start(deadlineMs = 120_000) {
    const started = Date.now();
    for (;;) {
      starts += 1;
      child = spawn(process.execPath, [join(root, 'dist/cli/main.js'), ...args], {
        cwd: root,
        env: {
          ...process.env,
          ...env,
          DATA_DIR: dataDir,
          LOG_LEVEL: port === undefined ? 'info' : 'warn',
          ...(port === undefined ? {} : { PORT: String(port) }),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const current = child;
      exited = new Promise((resolve) => current.once('exit', (code, signal) => resolve({ code, signal })));
      current.stderr.pipe(log, { end: false });
      let running = false;
      const lines = createInterface({ input: current.stdout });
      const sawRunning = new Promise((resolve) => {
        lines.on('line', (text) => {
          log.write(`${text}\n`);
          if (!running && text.includes('"msg":"worker running"')) {
            running = true;
            resolve(true);
          }
        });
      });
      const ready = port === undefined ? sawRunning : pollReady(port, () => current.exitCode !== null || current.signalCode !== null);
      const outcome = await Promise.race([ready, exited.then(() => false)]);
      if (outcome === true) return;
      // Exited before it was ready (a server it needs was down at start): start it again.
      if (Date.now() - started > deadlineMs) throw new Error(`${name} did not start within ${deadlineMs} ms (see ${join(runDir, `${name}.log`)})`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  return {
    name,
    port,
    start,
    starts: () => starts,
    alive: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    async kill() {
      if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: () => child.kill('SIGSTOP'),
    cont: () => child.kill('SIGCONT'),
    /** Graceful stop: SIGCONT (in case it is stopped), SIGTERM, await the exit. */
    async shutdown() {
      if (child?.exitCode === null && child.signalCode === null) {
        child.kill('SIGCONT');
        child.kill('SIGTERM');
      }
      await exited;
      log.end();
    },
  };
}

/** Polls GET /health/ready (a refused connection: not listening yet) until 200, or false once `gone()`. */
async function pollReady(port, gone) {
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
    if (response?.ok === true) return true;
    if (gone()) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
