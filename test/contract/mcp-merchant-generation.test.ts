import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/events/event-envelope.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';
import { startHttpFixture, type RunningHttpFixture } from '../integration/mcp/mcp-test-helpers.js';

/**
 * Tool calls inside generation see only the caller merchant's MCP servers (issue 28): a real MCP
 * server over HTTP on loopback registered by merchant A, a fake OpenAI speaking its real wire
 * format that calls the `add` tool whenever it is offered, and /api/generate called by A and by B.
 */

type OfferedTool = { function: { name: string } };

function toolNamesOf(request: RecordedRequest): string[] {
  const tools = (request.body as { tools?: OfferedTool[] } | undefined)?.tools ?? [];
  return tools.map((tool) => tool.function.name);
}

describe('MCP tools offered to the model', () => {
  let mcp: RunningHttpFixture;
  let provider: FakeHttpServer;
  let t: TestApp;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    mcp = await startHttpFixture('http');
    provider = await startFakeHttpServer((request) => {
      const body = request.body as { messages: { role: string }[] };
      const answeredTool = body.messages.some((message) => message.role === 'tool');
      if (toolNamesOf(request).includes('add') && !answeredTool) {
        return chatCompletion({ model: 'gpt-4o-mini', toolCalls: [{ id: 'call_add_1', name: 'add', arguments: { a: 2, b: 3 } }] });
      }
      return chatCompletion({ model: 'gpt-4o-mini', content: answeredTool ? 'the sum is 5' : 'no tools here' });
    });
    t = await createTestApp({
      env: { MCP_ALLOW_PRIVATE_ENDPOINTS: '127.0.0.1/32' },
      toolkitEnv: { OPENAI_API_KEY: 'sk-mcp-scope', OPENAI_BASE_URL: `${provider.url}/v1` },
    });
    keyA = (await createMerchant(t.app, 'gen-a')).apiKey;
    keyB = (await createMerchant(t.app, 'gen-b')).apiKey;
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/mcp/servers',
      headers: withKey(keyA),
      payload: { name: 'a-math', url: `${mcp.baseUrl}/mcp` },
    });
    expect(registered.statusCode, registered.body).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
    await mcp?.stop();
  });

  const generate = (key: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/generate',
      headers: withKey(key),
      payload: { input: { text: 'add 2 and 3' }, provider: 'openai', model: 'gpt-4o-mini' },
    });

  it("does not offer merchant A's server's tools to merchant B's call (built-in tools still are)", async () => {
    const before = provider.requests.length;
    const response = await generate(keyB);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ content: 'no tools here' });
    const offered = provider.requests.slice(before).flatMap(toolNamesOf);
    expect(offered).toContain('calculateMath');
    expect(offered).not.toContain('add');
    expect(offered).not.toContain('echo');
  });

  it("offers A's tools to A's call; the model's call runs on A's server and is a tool.executed event of A", async () => {
    const before = provider.requests.length;
    const eventsBefore = t.events.length;
    const response = await generate(keyA);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ content: 'the sum is 5' });
    expect(toolNamesOf(provider.requests[before] as RecordedRequest)).toEqual(expect.arrayContaining(['add', 'echo', 'calculateMath']));
    // The tool's answer went back to the model: the server really ran it.
    expect(JSON.stringify(provider.requests[before + 1]?.body)).toContain('5');
    await t.eventsCaughtUp();
    const runs = t.events.slice(eventsBefore).filter((event): event is EventEnvelope<'tool.executed'> => event.type === 'tool.executed');
    expect(
      runs.map((event) => [
        event.merchantId,
        event.payload.origin,
        event.payload.category,
        event.payload.serverId,
        event.payload.owner,
        event.payload.tool,
        event.payload.outcome,
      ]),
    ).toEqual([['gen-a', 'generation', 'mcp', 'a-math', 'merchant', 'add', 'success']]);
    expect(runs[0]?.payload.argumentBytes).toBe(JSON.stringify({ a: 2, b: 3 }).length);
    expect(runs[0]?.payload.surface).toBe('http');
  });
});
