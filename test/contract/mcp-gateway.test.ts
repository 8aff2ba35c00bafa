import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefaultNeuroLink } from '../../src/adapters/toolkit/default-neurolink.js';
import type { ToolExecutedV1 } from '../../src/generated/schema-types.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';
import { startHttpFixture, type RunningHttpFixture } from '../integration/mcp/mcp-test-helpers.js';
import { jsonWithoutIds } from '../helpers/redact-ids.js';

/**
 * The MCP gateway (issue 39, point 1) driven by the official MCP SDK client over real HTTP, the
 * way Claude Code and Codex configure a remote server (type http, the URL, an Authorization
 * header): a merchant's two registered servers (the SDK-built echo fixture on loopback, twice, so
 * two servers offer `echo`) and the toolkit's built-in tools as one MCP server.
 */

const pan = '4111 1111 1111 1111';

let fixture: RunningHttpFixture;
let t: TestApp;
let gatewayUrl: URL;
let keyA: string;
let keyB: string;

interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A remote server as Claude Code's `.mcp.json` and Codex's config.toml describe one: the transport, the URL, headers. */
interface RemoteServerConfig {
  readonly type: 'http';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** Connects the official SDK client the way those clients do from such a config. */
async function connectAs(config: RemoteServerConfig, fetchWrapper?: typeof fetch): Promise<Client> {
  const client = new Client({ name: 'contract-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(config.url), {
    requestInit: { headers: { ...config.headers } },
    ...(fetchWrapper !== undefined ? { fetch: fetchWrapper } : {}),
  });
  await client.connect(transport);
  return client;
}

const connect = (headers: Record<string, string>, fetchWrapper?: typeof fetch): Promise<Client> =>
  connectAs({ type: 'http', url: gatewayUrl.href, headers }, fetchWrapper);

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const register = (key: string, name: string) =>
  t.app.inject({ method: 'POST', url: '/api/mcp/servers', headers: withKey(key), payload: { name, url: `${fixture.baseUrl}/mcp` } });

async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

beforeAll(async () => {
  fixture = await startHttpFixture('http');
  const toolkit = new DefaultNeuroLink({
    env: { OPENAI_API_KEY: 'sk-contract-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
    cwd: mkdtempSync(join(tmpdir(), 'sytest-mcp-gateway-')),
    warn: () => undefined,
  });
  // A tool whose result carries a card number the client never sent (the guard pipeline's tool results).
  toolkit.registerTool('cardOnFile', { description: 'The card on file of a customer', execute: async () => ({ customer: 'c-1', card: pan }) });
  t = await createTestApp({ env: { MCP_ALLOW_PRIVATE_ENDPOINTS: '127.0.0.1/32' }, toolkit });
  keyA = (await createMerchant(t.app, 'mcp-gw-a')).apiKey;
  keyB = (await createMerchant(t.app, 'mcp-gw-b')).apiKey;
  for (const name of ['docs', 'wiki']) {
    const created = await register(keyA, name);
    expect(created.statusCode, created.body).toBe(201);
  }
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  gatewayUrl = new URL(`${address}/mcp`);
});
afterAll(async () => {
  await t?.close();
  await fixture?.stop();
});

describe('the MCP gateway at /mcp', () => {
  it('answers 401 without a key, as a JSON-RPC error naming the Bearer scheme', async () => {
    const response = await fetch(gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Missing authentication credentials' }, id: null });
    await expect(connect({})).rejects.toThrow(/401|Missing authentication credentials/);
  });

  it("lists the merchant's servers' tools namespaced per server, with the built-in tools", async () => {
    // `claude mcp add --transport http switchyard <url> --header "Authorization: Bearer DE_…"` writes this.
    const client = await connectAs({ type: 'http', url: gatewayUrl.href, headers: { Authorization: `Bearer ${keyA}` } });
    const names = await toolNames(client);
    // Both servers offer echo and add: each keeps its own name under its server.
    expect(names).toEqual(
      expect.arrayContaining(['docs__echo', 'wiki__echo', 'docs__add', 'wiki__add', 'switchyard__calculateMath', 'switchyard__getCurrentTime']),
    );
    expect(names.filter((name) => !/^(docs|wiki|switchyard)__/.test(name))).toEqual([]);
    const echo = (await client.listTools()).tools.find((tool) => tool.name === 'docs__echo');
    expect(echo).toMatchObject({ description: 'Echoes the text back', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } });
    await client.close();
  });

  it("calls a server's tool and a built-in one, each a tool.executed event of the merchant", async () => {
    const client = await connect(withKey(keyA));
    const added = (await client.callTool({ name: 'wiki__add', arguments: { a: 40, b: 2 } })) as ToolResult;
    expect(added.isError).toBeUndefined();
    expect(added.content).toEqual([{ type: 'text', text: '42' }]);
    expect(added.structuredContent).toEqual({ sum: 42 });
    const math = (await client.callTool({ name: 'switchyard__calculateMath', arguments: { expression: '6 * 7' } })) as ToolResult;
    expect(JSON.parse(math.content[0]?.text ?? '{}')).toMatchObject({ success: true, result: 42 });
    const failed = (await client.callTool({ name: 'docs__fail', arguments: {} })) as ToolResult;
    expect(failed.isError).toBe(true);
    await client.close();

    await t.eventsCaughtUp();
    const runs = t.events
      .flatMap((event) => (event.type === 'tool.executed' ? [{ merchantId: event.merchantId, run: event.payload as ToolExecutedV1 }] : []))
      .filter(({ run }) => run.surface === 'mcp')
      .map(({ merchantId, run }) => [merchantId, run.serverId, run.tool, run.outcome]);
    expect(runs).toEqual(
      expect.arrayContaining([
        ['mcp-gw-a', 'wiki', 'add', 'success'],
        ['mcp-gw-a', null, 'calculateMath', 'success'],
        ['mcp-gw-a', 'docs', 'fail', 'failure'],
      ]),
    );
  });

  it('refuses a tool that does not exist as a JSON-RPC invalid-params error', async () => {
    const client = await connect(bearer(keyA));
    await expect(client.callTool({ name: 'docs__nope', arguments: {} })).rejects.toThrow(/Unknown tool: docs__nope/);
    await client.close();
  });

  it("never shows merchant A's servers or tools to merchant B", async () => {
    const client = await connect(bearer(keyB));
    const names = await toolNames(client);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((name) => name.startsWith('switchyard__'))).toBe(true);
    await expect(client.callTool({ name: 'docs__echo', arguments: { text: 'steal' } })).rejects.toThrow(/Unknown tool: docs__echo/);
    await client.close();
  });

  it("hides and refuses the tools outside a key's allow-list", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api-key/create',
      headers: withKey(keyA),
      payload: { merchant_id: 'mcp-gw-a', mcp: { allowed_tools: ['docs__*', 'switchyard__getCurrentTime'] } },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ mcp: { allowed_tools: ['docs__*', 'switchyard__getCurrentTime'] } });
    const narrow = (created.json() as { api_key: string }).api_key;
    const client = await connect(bearer(narrow));
    const names = await toolNames(client);
    expect(names.length).toBeGreaterThan(1);
    expect(names.every((name) => name.startsWith('docs__') || name === 'switchyard__getCurrentTime')).toBe(true);
    await expect(client.callTool({ name: 'wiki__echo', arguments: { text: 'no' } })).rejects.toThrow(/Unknown tool: wiki__echo/);
    await expect(client.callTool({ name: 'switchyard__calculateMath', arguments: { expression: '1+1' } })).rejects.toThrow(/Unknown tool/);
    expect(((await client.callTool({ name: 'docs__echo', arguments: { text: 'allowed' } })) as ToolResult).content).toEqual([
      { type: 'text', text: 'allowed' },
    ]);
    await client.close();

    const refused = await t.app.inject({
      method: 'POST',
      url: '/api-key/create',
      headers: withKey(keyA),
      payload: { merchant_id: 'mcp-gw-a', mcp: { allowed_tools: ['docs echo'] } },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('mcp.allowed_tools');
  });

  it('tells an open session tools/list_changed when the merchant registers a server, and lists it', async () => {
    let streamOpen!: () => void;
    const opened = new Promise<void>((resolve) => {
      streamOpen = resolve;
    });
    // The client opens its standalone SSE stream (GET) in the background after initialising: the
    // server holds the stream once the client has its answer's head.
    const watching: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if ((init?.method ?? 'GET') === 'GET' && response.status === 200) streamOpen();
      return response;
    };
    const client = await connect(bearer(keyA), watching);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    await opened;
    expect(await toolNames(client)).not.toContain('extra__echo');
    expect((await register(keyA, 'extra')).statusCode).toBe(201);
    await changed;
    expect(await toolNames(client)).toContain('extra__echo');
    // Removal too.
    const removedNotice = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    expect((await t.app.inject({ method: 'DELETE', url: '/api/mcp/servers/extra', headers: withKey(keyA) })).statusCode).toBe(200);
    await removedNotice;
    expect(await toolNames(client)).not.toContain('extra__echo');
    await client.close();
  });

  it("counts each POST against the key's rpm and refuses past it with 429 and Retry-After, as a JSON-RPC error", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api-key/create',
      headers: withKey(keyA),
      payload: { merchant_id: 'mcp-gw-a', limits: { rpm: 2 } },
    });
    const limited = (created.json() as { api_key: string }).api_key;
    const post = (body: unknown, sessionId?: string) =>
      fetch(gatewayUrl, {
        method: 'POST',
        headers: {
          ...bearer(limited),
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(sessionId !== undefined ? { 'mcp-session-id': sessionId } : {}),
        },
        body: JSON.stringify(body),
      });
    const opened = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    expect(opened.status).toBe(200);
    await opened.text();
    const sessionId = opened.headers.get('mcp-session-id') ?? '';
    const acknowledged = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId);
    expect(acknowledged.status).toBe(202);
    const refused = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, sessionId);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
  });

  it('refuses to register a merchant server under the gateway’s own namespace', async () => {
    const refused = await register(keyA, 'switchyard');
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('reserved');
  });

  it('answers 404 Session not found for an unknown session id, so the client starts a new session', async () => {
    const response = await fetch(gatewayUrl, {
      method: 'POST',
      headers: { ...bearer(keyA), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'not-a-session' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' } });
  });

  it('is in the OpenAPI document: three operations under MCP, keys or sessions, JSON-RPC errors, SSE answers', async () => {
    type Operation = { tags?: string[]; security?: unknown[]; responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> };
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
    const path = spec.paths['/mcp'] ?? {};
    expect(Object.keys(path).sort()).toEqual(['delete', 'get', 'post']);
    for (const operation of Object.values(path)) {
      expect(operation.tags).toEqual(['MCP']);
      expect(operation.security).toEqual([{ BearerAuth: [] }, { ApiKeyAuth: [] }]);
      expect(operation.responses['401']?.content?.['application/json']?.schema.$ref).toBe('#/components/schemas/JsonRpcError');
      expect(operation.responses['404']?.content?.['application/json']?.schema.$ref).toBe('#/components/schemas/JsonRpcError');
    }
    expect(Object.keys(path['post']?.responses['200']?.content ?? {})).toEqual(['application/json', 'text/event-stream']);
    expect(path['post']?.responses['429']).toBeDefined();
    expect(Object.keys(path['get']?.responses['200']?.content ?? {})).toEqual(['text/event-stream']);
  });

  it("answers another key's session as an unknown one", async () => {
    const owner = await connect(bearer(keyA));
    const sessionId = (owner.transport as StreamableHTTPClientTransport).sessionId;
    expect(sessionId).toBeDefined();
    const response = await fetch(gatewayUrl, {
      method: 'POST',
      headers: { ...bearer(keyB), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId ?? '' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
    await owner.close();
  });
});

describe('the guard pipeline on /mcp tool calls', () => {
  const guardEvents = (merchantId: string) =>
    t.events
      .filter((event) => event.type === 'guard.applied' && event.merchantId === merchantId)
      .map((event) => event.payload as unknown as Record<string, unknown>);

  it('masks a card number in tool arguments and in tool results with the defaults', async () => {
    const client = await connect(withKey(keyA));
    // The echo server answers what it received: the card number reached it masked.
    const echoed = (await client.callTool({ name: 'docs__echo', arguments: { text: `charge ${pan}` } })) as ToolResult;
    expect(echoed.isError).toBeUndefined();
    expect(echoed.content).toEqual([{ type: 'text', text: 'charge [CARD_1]' }]);
    const onFile = (await client.callTool({ name: 'switchyard__cardOnFile', arguments: {} })) as ToolResult;
    expect(onFile.isError).toBeUndefined();
    expect(JSON.parse(onFile.content[0]?.text ?? '{}')).toEqual({ customer: 'c-1', card: '[CARD_1]' });
    await client.close();

    await t.eventsCaughtUp();
    const events = guardEvents('mcp-gw-a');
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ guard: 'card', stage: 'output', action: 'mask', count: 1, surface: 'mcp', blocked: false }),
        expect.objectContaining({ guard: 'card', stage: 'input', action: 'mask', count: 1, surface: 'mcp', blocked: false }),
      ]),
    );
    expect(jsonWithoutIds(events)).not.toContain('4111');
  });

  it("refuses arguments and withholds results the merchant's blocking guards match, as MCP tool errors naming the guard", async () => {
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/guardrails',
      headers: withKey(keyB),
      payload: { settings: { card: { action: 'block' }, email: { action: 'block' } } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const client = await connect(withKey(keyB));
    const refused = (await client.callTool({ name: 'switchyard__calculateMath', arguments: { expression: 'ops@example.com' } })) as ToolResult;
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toContain('"email" guardrail blocked the tool call\'s arguments');
    expect(JSON.stringify(refused)).not.toContain('ops@example.com');
    const withheld = (await client.callTool({ name: 'switchyard__cardOnFile', arguments: {} })) as ToolResult;
    expect(withheld.isError).toBe(true);
    expect(withheld.content[0]?.text).toContain('"card" guardrail blocked the tool\'s result');
    expect(JSON.stringify(withheld)).not.toMatch(/4111/);
    await client.close();

    await t.eventsCaughtUp();
    expect(guardEvents('mcp-gw-b')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ guard: 'email', stage: 'output', action: 'block', blocked: true, surface: 'mcp' }),
        expect.objectContaining({ guard: 'card', stage: 'input', action: 'block', blocked: true, surface: 'mcp' }),
      ]),
    );
  });

  it('runs the moderation guard over tool results, fail-closed when its setting says so (no OpenAI reachable here)', async () => {
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/guardrails',
      headers: withKey(keyB),
      payload: { settings: { moderation: { action: 'block', onError: 'block' } } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const client = await connect(withKey(keyB));
    const result = (await client.callTool({ name: 'switchyard__calculateMath', arguments: { expression: '6 * 7' } })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain('"moderation" guardrail blocked the tool\'s result');
    await client.close();
  });
});
