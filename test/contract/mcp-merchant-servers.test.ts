import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolkit } from '../../cli/create-toolkit.js';
import { mapEventToRows } from '../../src/analytics/map-event-to-rows.js';
import type { EventEnvelope } from '../../src/events/event-envelope.js';
import type { NeuroLink } from '../../src/toolkit/neurolink.js';
import { createMerchant, createTestApp, logIn, signUp, testPassword, withKey, withToken, type TestApp } from '../helpers/test-app.js';
import { echoStdioConfig, startHttpFixture, type RunningHttpFixture } from '../integration/mcp/mcp-test-helpers.js';

/**
 * MCP scoped per merchant (issue 28), on the real app with real MCP servers: the SDK-built echo
 * fixture over streamable HTTP on loopback (a merchant's own server; the operator allows
 * 127.0.0.1/32 in these apps) and over stdio (the operator's server, from its configuration).
 */

interface ServerView {
  id: string;
  owner: string;
  status: string;
  url?: string;
  headerNames?: string[];
  tools: { name: string }[];
  error?: string;
}

let fixture: RunningHttpFixture;
let mcpUrl: string;

beforeAll(async () => {
  fixture = await startHttpFixture('http');
  mcpUrl = `${fixture.baseUrl}/mcp`;
});
afterAll(async () => fixture?.stop());

describe("a merchant's own MCP servers", () => {
  let t: TestApp;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { MCP_ALLOW_PRIVATE_ENDPOINTS: '127.0.0.1/32' } });
    keyA = (await createMerchant(t.app, 'mcp-a')).apiKey;
    keyB = (await createMerchant(t.app, 'mcp-b')).apiKey;
  });
  afterAll(async () => t?.close());

  const register = (key: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/mcp/servers', headers: withKey(key), payload });
  const get = (key: string, url: string) => t.app.inject({ method: 'GET', url, headers: withKey(key) });
  const execute = (key: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/mcp/execute', headers: withKey(key), payload });
  const remove = (key: string, name: string) => t.app.inject({ method: 'DELETE', url: `/api/mcp/servers/${name}`, headers: withKey(key) });

  it('registers a server over HTTP, connects it and lists it as the merchant’s (header names only, never values)', async () => {
    const created = await register(keyA, { name: 'a-echo', url: mcpUrl, headers: { Authorization: 'Bearer merchant-secret' }, description: 'echo' });
    expect(created.statusCode, created.body).toBe(201);
    const server = (created.json() as { server: ServerView }).server;
    expect(server).toMatchObject({ id: 'a-echo', owner: 'merchant', status: 'connected', url: mcpUrl, headerNames: ['Authorization'] });
    expect(server.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'add']));
    expect(created.body).not.toContain('merchant-secret');

    const listed = await get(keyA, '/api/mcp/servers');
    expect(listed.statusCode).toBe(200);
    const body = listed.json() as { servers: ServerView[]; totalServers: number; availableServers: number };
    expect(body.servers.map((entry) => [entry.id, entry.owner])).toEqual([['a-echo', 'merchant']]);
    expect(body).toMatchObject({ totalServers: 1, availableServers: 1 });
    expect(listed.body).not.toContain('merchant-secret');

    const status = (await get(keyA, '/api/mcp/status')).json() as { summary: Record<string, number> };
    expect(status.summary).toMatchObject({ totalServers: 1, availableServers: 1, failedServers: 0 });

    const tools = (await get(keyA, '/api/mcp/tools')).json() as { tools: { name: string; category: string; serverId: string; owner?: string }[] };
    expect(tools.tools.filter((tool) => tool.category === 'mcp').map((tool) => [tool.serverId, tool.name, tool.owner])).toEqual(
      expect.arrayContaining([['a-echo', 'echo', 'merchant']]),
    );
  });

  it("runs the merchant's own tool through /api/mcp/execute", async () => {
    const echoed = await execute(keyA, { serverName: 'a-echo', toolName: 'add', params: { a: 40, b: 2 } });
    expect(echoed.statusCode, echoed.body).toBe(200);
    expect(echoed.json()).toMatchObject({ success: true, serverName: 'a-echo', toolName: 'add', output: '42', structuredContent: { sum: 42 } });
  });

  it("hides A's server from B: not listed, not runnable, not removable (404)", async () => {
    const listed = (await get(keyB, '/api/mcp/servers')).json() as { servers: ServerView[]; totalServers: number };
    expect(listed).toMatchObject({ servers: [], totalServers: 0 });
    const tools = (await get(keyB, '/api/mcp/tools')).json() as { tools: { serverId: string; category: string }[] };
    expect(tools.tools.filter((tool) => tool.category === 'mcp')).toEqual([]);
    const run = await execute(keyB, { serverName: 'a-echo', toolName: 'echo', params: { text: 'steal' } });
    expect(run.statusCode).toBe(404);
    expect(run.json()).toMatchObject({ success: false, code: 'MCP_CONFIGURATION', error: expect.stringContaining('Unknown MCP server "a-echo"') });
    const removed = await remove(keyB, 'a-echo');
    expect(removed.statusCode).toBe(404);
    // A's server is still there and still A's.
    expect((await execute(keyA, { serverName: 'a-echo', toolName: 'echo', params: { text: 'still mine' } })).json()).toMatchObject({ output: 'still mine' });
  });

  it('lets B register a server of the same name without touching A’s', async () => {
    expect((await register(keyB, { name: 'a-echo', url: mcpUrl, transport: 'streamable-http' })).statusCode).toBe(201);
    expect(((await get(keyA, '/api/mcp/servers')).json() as { servers: ServerView[] }).servers[0]).toMatchObject({ headerNames: ['Authorization'] });
    expect(((await get(keyB, '/api/mcp/servers')).json() as { servers: ServerView[] }).servers[0]).toMatchObject({ id: 'a-echo', headerNames: [] });
    expect((await remove(keyB, 'a-echo')).statusCode).toBe(200);
    expect(((await get(keyA, '/api/mcp/servers')).json() as { totalServers: number }).totalServers).toBe(1);
  });

  it('refuses malformed registrations with 422 and stdio or non-http(s) endpoints with a clear 4xx', async () => {
    for (const payload of [
      { url: mcpUrl },
      { name: 'no-url' },
      { name: '../up', url: mcpUrl },
      { name: 'x', url: mcpUrl, transport: 'stdio' },
      { name: 'x', command: 'sh', args: ['-c', 'id'] },
      { name: 'x', url: mcpUrl, command: 'sh' },
      { name: 'x', url: mcpUrl, headers: { a: 1 } },
      { name: 'x', url: mcpUrl, timeoutMs: 0 },
    ]) {
      const response = await register(keyA, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
    }
    const ftp = await register(keyA, { name: 'ftp', url: 'ftp://example.com/mcp' });
    expect(ftp.statusCode).toBe(400);
    expect(ftp.json()).toMatchObject({ code: 'INVALID_REQUEST', option: 'url', error: expect.stringContaining('scheme ftp: is not allowed') });
    const garbage = await register(keyA, { name: 'garbage', url: 'not a url' });
    expect(garbage.statusCode).toBe(400);
    expect((await remove(keyA, 'never-registered')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/mcp/servers/..%2Fx', headers: withKey(keyA) })).statusCode).toBe(400);
  });

  it('keeps reads to members and writes to admins of the merchant', async () => {
    await signUp(t.app, 'mcp-owner@example.com', 'mcp-a');
    const ownerToken = await logIn(t.app, 'mcp-owner@example.com');
    await signUp(t.app, 'mcp-member@example.com');
    const invite = await t.app.inject({
      method: 'POST',
      url: '/merchant/members/invite',
      headers: withToken(ownerToken),
      payload: { email: 'mcp-member@example.com', role: 'member' },
    });
    expect(invite.statusCode, invite.body).toBe(200);
    const member = (
      await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'mcp-member@example.com', password: testPassword } })
    ).json() as {
      token: string;
    };
    const memberList = await t.app.inject({ method: 'GET', url: '/api/mcp/servers', headers: withToken(member.token) });
    expect(memberList.statusCode).toBe(200);
    expect((memberList.json() as { totalServers: number }).totalServers).toBe(1);
    const memberWrite = await t.app.inject({ method: 'POST', url: '/api/mcp/servers', headers: withToken(member.token), payload: { name: 'm', url: mcpUrl } });
    expect(memberWrite.statusCode).toBe(403);
    const memberDelete = await t.app.inject({ method: 'DELETE', url: '/api/mcp/servers/a-echo', headers: withToken(member.token) });
    expect(memberDelete.statusCode).toBe(403);
  });

  it('records every execution as a tool.executed audit event (sizes, never arguments) that analytics lists', async () => {
    const before = t.events.length;
    await execute(keyA, { serverName: 'a-echo', toolName: 'echo', params: { text: 'top-secret-argument' } });
    await execute(keyA, { serverName: 'a-echo', toolName: 'fail', params: {} });
    await t.eventsCaughtUp();
    const runs = t.events.slice(before).filter((event): event is EventEnvelope<'tool.executed'> => event.type === 'tool.executed');
    expect(runs.map((event) => [event.merchantId, event.payload.serverId, event.payload.tool, event.payload.outcome, event.payload.errorCode])).toEqual([
      ['mcp-a', 'a-echo', 'echo', 'success', null],
      ['mcp-a', 'a-echo', 'fail', 'failure', 'MCP_TOOL'],
    ]);
    const [first] = runs;
    expect(first?.payload).toMatchObject({ origin: 'execute', category: 'mcp', owner: 'merchant', surface: 'http', argumentBytes: 30 });
    expect(first?.payload.durationMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(runs)).not.toContain('top-secret-argument');
    const row = mapEventToRows(runs[1] as EventEnvelope).domain[0];
    expect(row).toMatchObject({ merchant_id: 'mcp-a', flow_type: 'tool_executed_failure', summary_kind: 'tools', status: 'failure', error_code: 'MCP_TOOL' });
    expect(row?.error_message).toContain('Tool a-echo/fail (mcp, execute) failed: MCP_TOOL');
  });

  it('removes the server: gone from the list, its tools no longer runnable', async () => {
    const removed = await remove(keyA, 'a-echo');
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ success: true, removed: 'a-echo' });
    expect(((await get(keyA, '/api/mcp/servers')).json() as { totalServers: number }).totalServers).toBe(0);
    expect((await execute(keyA, { serverName: 'a-echo', toolName: 'echo', params: { text: 'x' } })).statusCode).toBe(404);
  });
});

describe('the SSRF guard on merchant endpoints (operator allows nothing private: the default)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    key = (await createMerchant(t.app, 'mcp-ssrf')).apiKey;
  });
  afterAll(async () => t?.close());

  it.each([
    ['the fixture on loopback', () => mcpUrl, /127\.0\.0\.1 is a loopback address/],
    ['a decimal loopback', () => 'http://2130706433/mcp', /127\.0\.0\.1 is a loopback address/],
    ['an octal loopback', () => 'http://0177.0.0.1/mcp', /loopback/],
    ['an IPv4-mapped IPv6 loopback', () => 'http://[::ffff:127.0.0.1]/mcp', /loopback/],
    ['IPv6 loopback', () => 'http://[::1]:80/mcp', /::1 is a loopback address/],
    ['localhost', () => 'http://localhost:9/mcp', /localhost is a loopback address/],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data', /the cloud metadata address/],
    ['a private address', () => 'http://192.168.0.10/mcp', /private \(RFC 1918\)/],
    ['a CGNAT address', () => 'http://100.64.0.1/mcp', /carrier-grade NAT/],
    ['a unique-local IPv6 address', () => 'http://[fd00::1]/mcp', /unique-local/],
    ['0.0.0.0', () => 'http://0.0.0.0:80/mcp', /unspecified/],
  ])('refuses %s with a 400 naming the reason, and stores nothing', async (_label, url, reason) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/mcp/servers', headers: withKey(key), payload: { name: 'ssrf', url: url() } });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'INVALID_REQUEST', option: 'url' });
    expect((response.json() as { error: string }).error).toMatch(reason);
    expect((response.json() as { error: string }).error).toContain('MCP_ALLOW_PRIVATE_ENDPOINTS');
    expect(await t.state.configs.get('mcp-ssrf', 'mcpServers')).toBeUndefined();
  });
});

describe("the operator's servers (.mcp-config.json) need the operator's allow-list", () => {
  let toolkit: NeuroLink;
  let t: TestApp;
  let allowedKey: string;
  let otherKey: string;

  beforeAll(async () => {
    toolkit = createToolkit({ logger: pino({ level: 'silent' }), cwd: mkdtempSync(join(tmpdir(), 'sytest-mcp-operator-')), env: {} }).toolkit;
    await toolkit.addMCPServer('operator-echo', echoStdioConfig());
    t = await createTestApp({ toolkit, env: { MCP_OPERATOR_SERVERS_MERCHANTS: 'mcp-allowed, someone-else' } });
    allowedKey = (await createMerchant(t.app, 'mcp-allowed')).apiKey;
    otherKey = (await createMerchant(t.app, 'mcp-not-allowed')).apiKey;
  });
  afterAll(async () => {
    await t?.close();
    await toolkit?.close();
  });

  const get = (key: string, url: string) => t.app.inject({ method: 'GET', url, headers: withKey(key) });
  const execute = (key: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/mcp/execute',
      headers: withKey(key),
      payload: { serverName: 'operator-echo', toolName: 'echo', params: { text: 'op' } },
    });

  it('lists and runs them for a merchant on the list', async () => {
    const servers = (await get(allowedKey, '/api/mcp/servers')).json() as { servers: ServerView[] };
    expect(servers.servers.map((server) => [server.id, server.owner, server.status])).toEqual([['operator-echo', 'operator', 'connected']]);
    const tools = (await get(allowedKey, '/api/mcp/tools')).json() as { tools: { serverId: string; category: string; owner?: string }[] };
    expect(tools.tools.some((tool) => tool.serverId === 'operator-echo' && tool.owner === 'operator')).toBe(true);
    const run = await execute(allowedKey);
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json()).toMatchObject({ output: 'op' });
    await t.eventsCaughtUp();
    const audit = t.events.find((event) => event.type === 'tool.executed' && event.merchantId === 'mcp-allowed');
    expect(audit?.payload).toMatchObject({ serverId: 'operator-echo', owner: 'operator', outcome: 'success' });
  });

  it('neither lists nor runs them for a merchant off the list (404, as if they did not exist)', async () => {
    const servers = (await get(otherKey, '/api/mcp/servers')).json() as { servers: ServerView[]; totalServers: number };
    expect(servers).toMatchObject({ servers: [], totalServers: 0 });
    const status = (await get(otherKey, '/api/mcp/status')).json() as { summary: Record<string, number> };
    expect(status.summary).toMatchObject({ totalServers: 0, totalTools: 0 });
    const tools = (await get(otherKey, '/api/mcp/tools')).json() as { tools: { category: string }[] };
    expect(tools.tools.filter((tool) => tool.category === 'mcp')).toEqual([]);
    const run = await execute(otherKey);
    expect(run.statusCode).toBe(404);
    expect(run.json()).toMatchObject({ code: 'MCP_CONFIGURATION' });
  });

  it('refuses a merchant server named like an operator server (400), so a name never means two servers', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/mcp/servers',
      headers: withKey(otherKey),
      payload: { name: 'operator-echo', url: 'https://mcp.example.com/mcp' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: expect.stringContaining('taken by an operator server') });
  });
});

describe('two replicas over one StateStore', () => {
  let one: TestApp;
  let two: TestApp;
  let key: string;

  beforeAll(async () => {
    one = await createTestApp({ env: { MCP_ALLOW_PRIVATE_ENDPOINTS: '127.0.0.1/32' } });
    two = await createTestApp({ env: { MCP_ALLOW_PRIVATE_ENDPOINTS: '127.0.0.1/32' }, state: one.state, clock: one.clock });
    key = (await createMerchant(one.app, 'mcp-replicas')).apiKey;
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('serves a server registered on one replica from the other, and forgets it on both when removed on either', async () => {
    const created = await one.app.inject({ method: 'POST', url: '/api/mcp/servers', headers: withKey(key), payload: { name: 'shared', url: mcpUrl } });
    expect(created.statusCode, created.body).toBe(201);
    const listed = (await two.app.inject({ method: 'GET', url: '/api/mcp/servers', headers: withKey(key) })).json() as { servers: ServerView[] };
    expect(listed.servers.map((server) => [server.id, server.status])).toEqual([['shared', 'connected']]);
    const run = await two.app.inject({
      method: 'POST',
      url: '/api/mcp/execute',
      headers: withKey(key),
      payload: { serverName: 'shared', toolName: 'echo', params: { text: 'from replica two' } },
    });
    expect(run.json()).toMatchObject({ output: 'from replica two' });
    expect((await two.app.inject({ method: 'DELETE', url: '/api/mcp/servers/shared', headers: withKey(key) })).statusCode).toBe(200);
    const after = await one.app.inject({
      method: 'POST',
      url: '/api/mcp/execute',
      headers: withKey(key),
      payload: { serverName: 'shared', toolName: 'echo', params: { text: 'gone?' } },
    });
    expect(after.statusCode).toBe(404);
  });
});
