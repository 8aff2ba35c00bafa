import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../cli/start-service.js';
import { loadConfig } from '../../../src/config/load-config.js';

/**
 * The service connects the MCP servers of its `.mcp-config.json` at start (NeuroLink's demo server
 * read the same file), serves them on /api/mcp/*, and stops their processes when it stops.
 */

const echoServerPath = fileURLToPath(new URL('../../fixtures/mcp/echo-server.ts', import.meta.url));
const adminSecret = 'service-mcp-admin-secret';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("the service's MCP servers", () => {
  let root: string;
  let server: RunningServer | undefined;
  let auth: Record<string, string>;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'sytest-service-mcp-'));
    writeFileSync(
      join(root, '.mcp-config.json'),
      JSON.stringify({
        mcpServers: {
          echo: { command: process.execPath, args: [echoServerPath], transport: 'stdio' },
          broken: { command: process.execPath, args: [join(root, 'no-such-server.js')], transport: 'stdio' },
          off: { command: process.execPath, args: [echoServerPath], transport: 'stdio', enabled: false },
        },
      }),
    );
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      ADMIN_SECRET: adminSecret,
      DATA_DIR: join(root, 'data'),
      EMBEDDED_WORKERS: 'false',
      // The operator's servers are for the merchants it allows (default nobody).
      MCP_OPERATOR_SERVERS_MERCHANTS: 'mcp-service-shop',
    });
    server = await startServer(config, pino({ level: 'silent' }), { toolkit: { cwd: root, env: {} } });
    const created = await fetch(`${server.url}/merchant-account/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-secret': adminSecret },
      body: JSON.stringify({ merchant_id: 'mcp-service-shop' }),
    });
    auth = { 'x-api-key': ((await created.json()) as { api_key: string }).api_key };
  });

  afterAll(async () => {
    await server?.stop();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const response = await fetch(`${server!.url}${path}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('connects the enabled servers at start and reports the one that failed, without failing the start', async () => {
    const servers = await call('GET', '/api/mcp/servers');
    expect(servers.status).toBe(200);
    const byId = Object.fromEntries((servers.body['servers'] as { id: string; status: string }[]).map((entry) => [entry.id, entry.status]));
    expect(byId['echo']).toBe('connected');
    expect(byId['broken']).toBe('failed');
    expect(byId['off']).not.toBe('connected');
  });

  it('executes their tools over HTTP and closes their processes on stop', async () => {
    const executed = await call('POST', '/api/mcp/execute', { serverName: 'echo', toolName: 'add', params: { a: 1, b: 2 } });
    expect(executed).toMatchObject({ status: 200, body: { success: true, output: '3' } });
    const pid = Number((await call('POST', '/api/mcp/execute', { serverName: 'echo', toolName: 'pid' })).body['output']);
    expect(isRunning(pid)).toBe(true);
    await server!.stop();
    expect(isRunning(pid)).toBe(false);
  });
});

describe('a malformed .mcp-config.json', () => {
  it('stops the start, naming the file', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sytest-service-mcp-bad-'));
    try {
      writeFileSync(join(root, '.mcp-config.json'), '{ "mcpServers": ');
      const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: join(root, 'data'), EMBEDDED_WORKERS: 'false' });
      await expect(startServer(config, pino({ level: 'silent' }), { toolkit: { cwd: root, env: {} } })).rejects.toThrow(
        /Malformed JSON in MCP config file .*\.mcp-config\.json/,
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
