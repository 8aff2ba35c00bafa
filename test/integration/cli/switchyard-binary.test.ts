import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream } from '../../fixtures/providers/openai-wire.js';
import { cliWorkDir, removeCliWorkDirs } from '../../helpers/cli-harness.js';
import { ensureDistBuilt } from '../pipeline/switchyard-process.js';

const cliEntry = join(fileURLToPath(new URL('../../../', import.meta.url)), 'dist/cli/main.js');

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The built `switchyard` binary as a user runs it: a child process, a pipe for stdin, no terminal. */
function switchyard(args: readonly string[], options: { env?: Record<string, string>; stdin?: string; cwd?: string } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliEntry, ...args], {
      cwd: options.cwd ?? cliWorkDir(),
      env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'silent', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Whether `port` can be listened on now (a default-port test needs the port itself). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Starts a long-running command and resolves once `path` answers 200; `stop` sends SIGTERM and resolves with the exit code. */
async function serving(args: readonly string[], port: number, path: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [cliEntry, ...args], {
    cwd: cliWorkDir(),
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`switchyard ${args.join(' ')} exited ${child.exitCode}: ${output}`);
    const ok = await fetch(`${url}${path}`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    // Polling the port: the only readiness signal a server process gives.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

let provider: FakeHttpServer;

afterAll(removeCliWorkDirs);

beforeAll(async () => {
  await ensureDistBuilt();
  provider = await startFakeHttpServer((request) => {
    const body = request.body as { model: string; stream?: boolean };
    return body.stream === true
      ? chatCompletionStream({ model: body.model, deltas: ['piped ', 'answer'] })
      : chatCompletion({ model: body.model, content: 'piped answer' });
  });
}, 300_000);
afterAll(async () => provider?.close());

describe('the switchyard binary', () => {
  it('reads a prompt from a pipe, streams the answer and exits 0, with no escape codes off a terminal', async () => {
    const ran = await switchyard(['generate', '--disable-tools'], {
      stdin: 'hello\n',
      env: { OPENAI_API_KEY: 'sk-bin', OPENAI_BASE_URL: `${provider.url}/v1` },
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe('piped answer\n');
    expect(ran.stderr).not.toContain('\u001b');
  });

  it('exits 2 on a usage error and 3 for a provider without credentials, with a one-line message', async () => {
    const usage = await switchyard(['generate', '--temperature']);
    expect(usage.code).toBe(2);
    const config = await switchyard(['generate', 'hi', '--provider', 'anthropic']);
    expect(config.code).toBe(3);
    expect(config.stderr.trim().split('\n')).toHaveLength(1);
    expect(config.stderr).toContain('ANTHROPIC_API_KEY');
  });

  it('prints help (also as `help <command>`) and the version with exit 0, and the usage with exit 2 when given no command', async () => {
    for (const args of [['--help'], ['help'], ['help', 'generate'], ['mcp', 'install', '--help'], ['batch', 'submit', '--help']]) {
      const ran = await switchyard(args);
      expect(ran.code, args.join(' ')).toBe(0);
      expect(ran.stdout).toMatch(/^Usage: switchyard/);
    }
    expect((await switchyard(['--help'])).stdout).toContain('Exit codes: 0 ok, 1 unexpected failure, 2 usage');
    expect((await switchyard(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const bare = await switchyard([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^Usage: switchyard/);
  });

  it('streams newline-delimited JSON events with `stream --format json`', async () => {
    const ran = await switchyard(['stream', '--disable-tools', '--format', 'json', '--quiet'], {
      stdin: 'hello\n',
      env: { OPENAI_API_KEY: 'sk-bin', OPENAI_BASE_URL: `${provider.url}/v1` },
    });
    expect(ran.code, ran.stderr).toBe(0);
    const events = ran.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; content?: string });
    expect(events.map((event) => event.type)).toEqual(['start', 'chunk', 'chunk', 'complete']);
    expect(events.map((event) => event.content ?? '').join('')).toBe('piped answer');
    expect(ran.stderr).toBe('');
  });

  it('serves the model registry alone with `models serve` (public, read only)', async () => {
    const port = await freePort();
    const server = await serving(['models', 'serve', '--port', String(port)], port, '/health');
    try {
      const models = (await (await fetch(`${server.url}/models`)).json()) as { count: number };
      expect(models.count).toBeGreaterThan(5);
      const search = (await (await fetch(`${server.url}/api/v1/search?capability=vision`)).json()) as { count: number };
      expect(search.count).toBeGreaterThan(0);
      expect((await fetch(`${server.url}/api/v1/models/nobody`)).status).toBe(404);
      expect((await fetch(`${server.url}/models/resolve/cheapest`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('listens on 9876 for `serve --only generation` and on 3001 for `models serve` when no port is given', async (context) => {
    // Another process holding a default port is the machine's state, not a failure of the defaults.
    const held: number[] = [];
    for (const port of [9876, 3001]) if (!(await portIsFree(port))) held.push(port);
    if (held.length > 0) context.skip(`default port ${held.join(' and ')} held by another process on this machine`);
    const generation = await serving(['serve', '--only', 'generation'], 9876, '/health/ready', { DATA_DIR: cliWorkDir(), ADMIN_SECRET: 'default-port-secret' });
    try {
      expect((await fetch(`${generation.url}/api/status`)).status).toBe(401);
    } finally {
      expect(await generation.stop()).toBe(0);
    }
    const models = await serving(['models', 'serve'], 3001, '/health');
    try {
      expect(((await (await fetch(`${models.url}/models`)).json()) as { count: number }).count).toBeGreaterThan(5);
    } finally {
      expect(await models.stop()).toBe(0);
    }
  });

  it('serves only the generation surfaces with `serve --only generation`, behind the same auth', async () => {
    const port = await freePort();
    const server = await serving(['serve', '--only', 'generation', '--port', String(port)], port, '/health/ready', {
      DATA_DIR: cliWorkDir(),
      ADMIN_SECRET: 'only-generation-secret',
      OPENAI_API_KEY: 'sk-only',
      OPENAI_BASE_URL: `${provider.url}/v1`,
    });
    try {
      const created = await fetch(`${server.url}/merchant-account/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-admin-secret': 'only-generation-secret' },
        body: JSON.stringify({ merchant_id: 'gen-only' }),
      });
      const key = ((await created.json()) as { api_key: string }).api_key;
      expect(
        (await fetch(`${server.url}/api/generate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'hi' }) }))
          .status,
      ).toBe(401);
      const generated = await fetch(`${server.url}/api/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ prompt: 'hi', disableTools: true }),
      });
      expect(generated.status).toBe(200);
      expect(((await generated.json()) as { content: string }).content).toBe('piped answer');
      // The payment-routing routes are not part of this surface.
      expect(
        (await fetch(`${server.url}/decide-gateway`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: '{}' })).status,
      ).toBe(404);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
