import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { EventEnvelope } from '../../src/events/event-envelope.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletionStream } from '../fixtures/providers/openai-wire.js';
import { ChatSocket, type ChatMessage } from '../helpers/chat-socket.js';
import { createKeyWith, createMerchant, createTestApp, signUp, withKey, withToken, type TestApp } from '../helpers/test-app.js';

/**
 * WebSocket chat turns go through the API key's limits exactly as the HTTP routes' requests do
 * (issue 28): rpm and budget refuse a turn before any provider call with an `error` message of code
 * SY_KEY_LIMIT_EXCEEDED (the connection and other connections go on), the reservation counts the
 * turn's whole input (conversation memory included), the spend is counted against the key, and a key
 * revoked (or a session logged out) since the upgrade is refused from its next turn. Real app on loopback, real `ws` clients,
 * an OpenAI-wire fake with a priced model (gpt-4o-mini).
 */

interface ChatBody {
  readonly model: string;
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
}

function upstream(request: RecordedRequest) {
  const body = request.body as ChatBody;
  return chatCompletionStream({ model: body.model, deltas: ['fine'], usage: { promptTokens: 40, completionTokens: 2 } });
}

/** A chat socket that sends turns and heartbeats and waits for their answers. */
class Client extends ChatSocket {
  /** Sends a chat turn and resolves with its outcome: the `complete` ai-response or the `error`. */
  async turn(data: Record<string, unknown>): Promise<ChatMessage> {
    const from = this.messages.length;
    this.socket.send(JSON.stringify({ type: 'chat', data: { provider: 'openai', model: 'gpt-4o-mini', ...data } }));
    return this.next((message) => message.type === 'error' || (message.type === 'ai-response' && message.data['event'] === 'complete'), from);
  }

  async heartbeat(): Promise<ChatMessage> {
    const from = this.messages.length;
    this.socket.send(JSON.stringify({ type: 'heartbeat' }));
    return this.next((message) => message.type === 'heartbeat', from);
  }
}

let provider: FakeHttpServer;
let t: TestApp;
let url: string;
let ownerKey: string;
const clients: Client[] = [];

beforeAll(async () => {
  provider = await startFakeHttpServer(upstream);
  t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-chat-limits', OPENAI_BASE_URL: `${provider.url}/v1` } });
  ownerKey = (await createMerchant(t.app, 'chat-limits-shop')).apiKey;
  url = `${(await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws')}/api/chat/ws`;
});
afterEach(() => {
  for (const client of clients.splice(0)) client.socket.terminate();
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

async function connect(apiKey: string, headers: Record<string, string> = { 'x-api-key': apiKey }): Promise<Client> {
  const socket = new WebSocket(url, { headers });
  const client = new Client(socket);
  clients.push(client);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  await client.next((message) => message.type === 'system' && message.data['event'] === 'connected');
  return client;
}

function newKey(limits: unknown): Promise<{ keyId: string; apiKey: string }> {
  return createKeyWith(t.app, ownerKey, 'chat-limits-shop', { limits });
}

async function usageOf(keyId: string): Promise<Record<string, number | string>> {
  const list = (await t.app.inject({ method: 'GET', url: '/api-key/list/chat-limits-shop', headers: withKey(ownerKey) })).json() as {
    key_id: string;
    usage: Record<string, number | string>;
  }[];
  return list.find((entry) => entry.key_id === keyId)!.usage;
}

describe('WebSocket chat under per-key limits', () => {
  it('refuses a turn over the budget with an error of code SY_KEY_LIMIT_EXCEEDED, before any provider call; the connections go on', async () => {
    const { apiKey } = await newKey({ budget: { amount_usd: 0.000001, period: 'day' } });
    const limited = await connect(apiKey);
    const other = await connect(ownerKey);
    const before = provider.requests.length;
    const refused = await limited.turn({ message: 'hello' });
    expect(refused.type).toBe('error');
    expect(refused.data).toMatchObject({ code: 'SY_KEY_LIMIT_EXCEEDED', limit: 'budget', retryAfterS: expect.any(Number) });
    expect(refused.data['error']).toContain('budget');
    expect(provider.requests.length).toBe(before);
    // Neither this connection nor another one is closed.
    expect((await limited.heartbeat()).data).toEqual({ pong: true });
    expect((await other.turn({ message: 'hello' })).data['event']).toBe('complete');
    expect(limited.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('serves rpm turns a minute and refuses the next with SY_KEY_LIMIT_EXCEEDED (rpm)', async () => {
    const { apiKey } = await newKey({ rpm: 2 });
    const client = await connect(apiKey);
    expect((await client.turn({ message: 'one' })).data['event']).toBe('complete');
    expect((await client.turn({ message: 'two' })).data['event']).toBe('complete');
    const before = provider.requests.length;
    const third = await client.turn({ message: 'three' });
    expect(third.data).toMatchObject({ code: 'SY_KEY_LIMIT_EXCEEDED', limit: 'rpm' });
    expect(provider.requests.length).toBe(before);
    // A second connection of the same key shares the same minute.
    expect((await (await connect(apiKey)).turn({ message: 'four' })).data).toMatchObject({ code: 'SY_KEY_LIMIT_EXCEEDED', limit: 'rpm' });
  });

  it("counts a turn's spend against its key, and releases its reservation once the spend has landed", async () => {
    const { keyId, apiKey } = await newKey({ budget: { amount_usd: 1, period: 'day' } });
    const client = await connect(apiKey);
    expect((await client.turn({ message: 'priced' })).data['event']).toBe('complete');
    await t.eventsCaughtUp();
    const costs = t.events
      .filter((event): event is EventEnvelope<'llm.call'> => event.type === 'llm.call' && event.payload.apiKeyId === keyId)
      .map((event) => event.payload.costUsd);
    expect(costs).toHaveLength(1);
    expect(costs[0]).toBeGreaterThan(0);
    await expect.poll(async () => (await usageOf(keyId))['reserved_usd']).toBe(0);
    expect((await usageOf(keyId))['spend_usd']).toBeCloseTo(costs[0]!, 9);
  });

  it("passes the turn's session to conversation memory, and reserves for the history it carries", async () => {
    const owner = await connect(ownerKey);
    expect((await owner.turn({ message: 'My name is Ada.' })).data['event']).toBe('complete');
    const before = provider.requests.length;
    expect((await owner.turn({ message: 'What is my name?' })).data['event']).toBe('complete');
    const sent = (provider.requests[before]!.body as ChatBody).messages.map((message) => message.content);
    expect(sent).toEqual(['My name is Ada.', 'fine', 'What is my name?']);
    // A named session is shared by the merchant's connections; a budget key's turn carrying its long history is refused.
    expect((await owner.turn({ message: 'x'.repeat(24_000), sessionId: 'shared-long' })).data['event']).toBe('complete');
    const { apiKey } = await newKey({ budget: { amount_usd: 0.001, period: 'day' } });
    const limited = await connect(apiKey);
    expect((await limited.turn({ message: 'hi', sessionId: 'fresh' })).data['event']).toBe('complete');
    const refused = await limited.turn({ message: 'hi', sessionId: 'shared-long' });
    expect(refused.data).toMatchObject({ code: 'SY_KEY_LIMIT_EXCEEDED', limit: 'budget' });
  });

  it('refuses the turns of a key revoked after the upgrade, keeping the connection', async () => {
    const { keyId, apiKey } = await newKey(undefined);
    const client = await connect(apiKey);
    expect((await client.turn({ message: 'before' })).data['event']).toBe('complete');
    expect((await t.app.inject({ method: 'DELETE', url: `/api-key/${keyId}`, headers: withKey(ownerKey) })).statusCode).toBe(200);
    const before = provider.requests.length;
    expect((await client.turn({ message: 'after' })).data).toMatchObject({ code: 'SY_AUTH_REVOKED_API_KEY' });
    expect(provider.requests.length).toBe(before);
  });

  it('answers a session (JWT) connection unlimited, and refuses its turns once the session is logged out', async () => {
    const { token } = await signUp(t.app, 'chat-limits@shop.example', 'chat-limits-shop');
    const client = await connect('', withToken(token));
    expect((await client.turn({ message: 'as a user' })).data['event']).toBe('complete');
    expect((await t.app.inject({ method: 'POST', url: '/auth/logout', headers: withToken(token) })).statusCode).toBe(200);
    const before = provider.requests.length;
    expect((await client.turn({ message: 'after logout' })).data).toMatchObject({ code: 'SY_AUTH_INVALID_TOKEN' });
    expect(provider.requests.length).toBe(before);
  });
});
