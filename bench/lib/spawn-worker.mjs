// Starts `switchyard worker <name>` from dist/ as a child process and waits for its 'worker running'
// log line (JSON on stdout); errors it logs are passed through to stderr.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const root = new URL('../..', import.meta.url).pathname;

export async function spawnWorker(name, env = {}) {
  const child = spawn(process.execPath, [join(root, 'dist/cli/main.js'), 'worker', name], {
    // info: the 'worker running' line is how readiness is seen.
    env: { ...process.env, ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const running = new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (text) => {
      if (!text.startsWith('{')) return;
      const line = JSON.parse(text);
      if (line.msg === 'worker running') resolve();
      if (line.level >= 50) process.stderr.write(`[${name}] ${line.msg}${line.err ? `: ${line.err.message}` : ''}\n`);
    });
    exited.then(({ code, signal }) => reject(new Error(`worker ${name} exited (${code ?? signal}) before it was running`)));
  });
  await running;
  return {
    name,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
