import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolkit } from '../../cli/create-toolkit.js';
import type { NeuroLink } from '../../src/toolkit/neurolink.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * /api/mcp/* on the real app with a real MCP server connected to its toolkit: the SDK-built echo
 * fixture over stdio, spawned by the same Node binary (never through a shell).
 */

const echoServerPath = fileURLToPath(new URL('../fixtures/mcp/echo-server.ts', import.meta.url));

describe('/api/mcp with a connected MCP server', () => {
  let toolkit: NeuroLink;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    toolkit = createToolkit({ logger: pino({ level: 'silent' }), cwd: mkdtempSync(join(tmpdir(), 'sytest-mcp-routes-')), env: {} }).toolkit;
    await toolkit.addMCPServer('echo', { command: process.execPath, args: [echoServerPath], transport: 'stdio' });
    // The operator's servers are for the merchants it allows (MCP_OPERATOR_SERVERS_MERCHANTS; default nobody).
    t = await createTestApp({ toolkit, env: { MCP_OPERATOR_SERVERS_MERCHANTS: 'mcp-shop' } });
    key = (await createMerchant(t.app, 'mcp-shop')).apiKey;
  });
  afterAll(async () => {
    await t?.close();
    await toolkit?.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: withKey(key) });
  const execute = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/mcp/execute', headers: withKey(key), payload });

  it('lists the server as connected with its tools, and counts it in the status', async () => {
    const servers = await get('/api/mcp/servers');
    expect(servers.statusCode).toBe(200);
    const body = servers.json() as {
      success: boolean;
      totalServers: number;
      availableServers: number;
      servers: { id: string; status: string; transport: string; tools: { name: string }[] }[];
    };
    expect(body).toMatchObject({ success: true, totalServers: 1, availableServers: 1 });
    expect(body.servers[0]).toMatchObject({ id: 'echo', status: 'connected', transport: 'stdio' });
    expect(body.servers[0]?.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'add', 'fail']));

    const status = (await get('/api/mcp/status')).json() as { summary: Record<string, number> };
    expect(status.summary).toMatchObject({ totalServers: 1, availableServers: 1, unavailableServers: 0, failedServers: 0 });
    expect(status.summary['totalTools']).toBe(body.servers[0]?.tools.length);
  });

  it("lists the server's tools next to the built-in ones", async () => {
    const tools = (await get('/api/mcp/tools')).json() as { totalTools: number; tools: { name: string; category: string }[] };
    expect(tools.totalTools).toBe(tools.tools.length);
    const categoryOf = (name: string) => tools.tools.find((tool) => tool.name === name)?.category;
    expect(categoryOf('add')).toBe('mcp');
    expect(categoryOf('calculateMath')).toBe('built-in');
  });

  it('calls a tool with params and answers its text and structured content', async () => {
    const echoed = await execute({ serverName: 'echo', toolName: 'echo', params: { text: 'hello over MCP' } });
    expect(echoed.statusCode, echoed.body).toBe(200);
    expect(echoed.json()).toMatchObject({ success: true, serverName: 'echo', toolName: 'echo', output: 'hello over MCP' });
    const added = await execute({ serverName: 'echo', toolName: 'add', params: { a: 2, b: 40 } });
    expect(added.json()).toMatchObject({ success: true, output: '42', structuredContent: { sum: 42 } });
  });

  it('answers 422 MCP_TOOL for an unknown tool (naming the ones offered), bad arguments and a failing tool', async () => {
    const unknown = await execute({ serverName: 'echo', toolName: 'nope', params: {} });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ success: false, code: 'MCP_TOOL', error: expect.stringContaining('it offers: ') });
    const badArguments = await execute({ serverName: 'echo', toolName: 'add', params: { a: 'two', b: 40 } });
    expect(badArguments.statusCode).toBe(422);
    expect(badArguments.json()).toMatchObject({ code: 'MCP_TOOL' });
    const failing = await execute({ serverName: 'echo', toolName: 'fail' });
    expect(failing.statusCode).toBe(422);
    expect(failing.json()).toMatchObject({ code: 'MCP_TOOL', error: expect.stringContaining('this tool always fails') });
  });

  it('refuses bodies of the wrong shape before reaching the server', async () => {
    for (const payload of [
      { toolName: 'echo' },
      { serverName: 'echo' },
      { serverName: 'echo', toolName: 'echo', params: 'text=hi' },
      { serverName: '../echo', toolName: 'echo' },
      { serverName: 'echo', toolName: 'echo', command: 'sh' },
    ]) {
      const response = await execute(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
    }
  });

  it('cancels the tool call when the caller goes away', async () => {
    const calls: { readonly signal: AbortSignal | undefined; readonly settled: Promise<unknown> }[] = [];
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const original = toolkit.executeMCPTool.bind(toolkit);
    toolkit.executeMCPTool = (serverId, toolName, params, options) => {
      const call = original(serverId, toolName, params, options);
      calls.push({
        signal: options?.signal,
        settled: call.then(
          () => 'answered',
          (error: unknown) => error,
        ),
      });
      markStarted();
      return call;
    };
    try {
      const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const client = new AbortController();
      const request = fetch(`${base}/api/mcp/execute`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...withKey(key) },
        body: JSON.stringify({ serverName: 'echo', toolName: 'slow', params: { ms: 600_000 } }),
        signal: client.signal,
      }).catch((error: unknown) => error);
      await started;
      client.abort();
      await request;
      const [call] = calls;
      // Without the cancellation the slow tool would hold the call for ten minutes and the test would time out here.
      const outcome = await call?.settled;
      expect(call?.signal?.aborted).toBe(true);
      expect(String(outcome)).toContain('was aborted');
      // The server is still there for the next caller.
      expect((await execute({ serverName: 'echo', toolName: 'echo', params: { text: 'still here' } })).json()).toMatchObject({ output: 'still here' });
    } finally {
      toolkit.executeMCPTool = original;
    }
  });

  it('needs a credential', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/mcp/execute', payload: { serverName: 'echo', toolName: 'echo', params: { text: 'x' } } });
    expect(response.statusCode).toBe(401);
  });
});
