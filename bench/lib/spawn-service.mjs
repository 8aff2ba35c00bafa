// Starts `switchyard serve` from dist/ as a child process on a free loopback port and waits until
// /health/ready answers; returns its base URL, pid and a stop() that sends SIGTERM, awaits exit and
// removes the service's data directory (a decide bench leaves 2–3 GB of chDB parts and journal there).
// `root` runs another build's dist/ (bench-compare runs a base build from a scratch directory).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.mjs';

const root = new URL('../..', import.meta.url).pathname;

export async function spawnService(env = {}, { root: serviceRoot = root } = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
  const child = spawn(
    process.execPath,
    [...(process.env.SERVICE_NODE_FLAGS ?? '').split(' ').filter(Boolean), join(serviceRoot, 'dist/cli/main.js'), 'serve'],
    {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ADMIN_SECRET: 'bench-admin-secret-0123456789abcdef',
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let attempt = 0; ; attempt++) {
    // A refused connection means not listening yet: the loop polls the real condition (the port answering).
    const response = await fetch(`${url}/health/ready`).catch(() => undefined);
    if (response?.ok === true) break;
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    if (attempt > 600) throw new Error('service did not become ready in 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts `switchyard worker <name>` (distributed mode: the env must name Redis/Kafka/ClickHouse)
 * as a child process; stop() sends SIGTERM (the worker commits what it holds) and awaits exit.
 */
export function spawnWorker(name, env = {}) {
  const child = spawn(process.execPath, [join(root, 'dist/cli/main.js'), 'worker', name], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function json(url, path, body, headers = {}, method = body === undefined ? 'GET' : 'POST') {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path} → ${response.status} ${text}`);
  return text.startsWith('{') ? JSON.parse(text) : text;
}

/**
 * A merchant for the decide benches: created with the admin secret, an operator signed up for it,
 * and the benches' success-rate config (bucket 125, 5 % hedging). Answers the session's headers and
 * the merchant's API key.
 */
export async function benchMerchant(url, adminSecret, name) {
  const created = await json(url, '/merchant-account/create', { merchant_id: name }, { 'x-admin-secret': adminSecret });
  const session = await json(
    url,
    '/auth/signup',
    { email: `${name}@bench.example`, password: 'violet-harbour-lantern-42', merchant_id: name },
    { 'x-admin-secret': adminSecret },
  );
  const headers = { authorization: `Bearer ${session.token}` };
  await json(url, '/rule/create', { merchant_id: name, config: { type: 'successRate', data: { defaultBucketSize: 125, defaultHedgingPercent: 5 } } }, headers);
  return { headers, apiKey: created.api_key };
}
