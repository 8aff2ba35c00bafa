import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createEnhancedChatService } from '../../src/toolkit/enhanced-chat-service.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletionStream } from '../fixtures/providers/openai-wire.js';
import { ChatSocket, openChatSocket } from '../helpers/chat-socket.js';
import { createMerchant, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The WebSocket chat at /api/chat/ws and the SSE chat service, with real clients (`ws`, fetch)
 * against the real app listening on loopback, answers streamed from an OpenAI-wire fake.
 */

function upstream(request: RecordedRequest) {
  const body = request.body as { model: string };
  return chatCompletionStream({ model: body.model, deltas: ['Hello', ' from', ' the model'], usage: { promptTokens: 4, completionTokens: 3 } });
}

let provider: FakeHttpServer;
beforeAll(async () => {
  provider = await startFakeHttpServer(upstream);
});
afterAll(() => provider.close());

describe('WebSocket chat', () => {
  let t: TestApp;
  let url: string;
  let key: string;
  const clients: ChatSocket[] = [];

  async function start(chat: NonNullable<Parameters<typeof createTestApp>[0]>['chat'] = {}) {
    t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-chat', OPENAI_BASE_URL: `${provider.url}/v1` }, chat });
    key = (await createMerchant(t.app, 'chat-shop')).apiKey;
    url = `${(await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws')}/api/chat/ws`;
  }
  const connect = async (options: WebSocket.ClientOptions = {}) => {
    const client = await openChatSocket(url, { 'x-api-key': key }, options);
    clients.push(client);
    return client;
  };
  afterEach(async () => {
    for (const client of clients.splice(0)) client.socket.terminate();
    await t.close();
  });

  it('refuses an upgrade without a valid credential with 401, before any connection', async () => {
    await start();
    await expect(openChatSocket(url, {})).rejects.toMatchObject({ statusCode: 401 });
    await expect(openChatSocket(url, { 'x-api-key': `DE_${'0'.repeat(64)}` })).rejects.toMatchObject({ statusCode: 401 });
    expect(t.app.chat.getConnectionCount()).toBe(0);
    // A browser passes its credential as a subprotocol.
    const browser = new ChatSocket(new WebSocket(url, ['switchyard', key]));
    clients.push(browser);
    expect(await browser.connectionId()).toMatch(/^[0-9a-f-]{36}$/);
    expect(browser.socket.protocol).toBe('switchyard');
  });

  it('streams an AI response to a chat message and records it for the merchant with surface websocket', async () => {
    await start({ bufferSize: 4 });
    const client = await connect();
    await client.connectionId();
    client.send({ type: 'chat', data: { message: 'hi there' } });
    const complete = await client.next((message) => message.type === 'ai-response' && message.data['event'] === 'complete');
    const chunks = client.messages
      .filter((message) => message.type === 'ai-response' && message.data['event'] === 'chunk')
      .map((message) => message.data['content']);
    expect(chunks.join('')).toBe('Hello from the model');
    expect(chunks.length).toBeGreaterThan(1);
    expect(complete.data).toMatchObject({ usage: { inputTokens: 4, outputTokens: 3 }, provider: 'openai', finishReason: 'stop' });
    await t.eventsCaughtUp();
    expect(t.events.find((event) => event.type === 'llm.call')).toMatchObject({
      merchantId: 'chat-shop',
      payload: { surface: 'websocket', operation: 'stream', outcome: 'success' },
    });
    // The documented browser form works too.
    client.send({ type: 'chat-message', data: { prompt: 'again' } });
    await client.next((message) => message.type === 'ai-response' && message.data['event'] === 'complete' && message !== complete);
  });

  it("sends ai-response data as the interface's {text} (event, channelId and content additive), the whole text on complete", async () => {
    await start({ bufferSize: 4 });
    const client = await connect();
    await client.connectionId();
    client.send({ type: 'chat', data: { message: 'hi there' } });
    const complete = await client.next((message) => message.type === 'ai-response' && message.data['event'] === 'complete');
    const chunks = client.messages.filter((message) => message.type === 'ai-response' && message.data['event'] === 'chunk');
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks)
      expect(chunk.data).toEqual({ text: chunk.data['content'], event: 'chunk', channelId: expect.any(String), content: expect.any(String) });
    expect(chunks.map((chunk) => chunk.data['text']).join('')).toBe('Hello from the model');
    expect(complete.data['text']).toBe('Hello from the model');
  });

  it('lets chat use tools under the confirmation rules of /api/generate (writeFile runs only when confirmed)', async () => {
    /** First turn: the model calls writeFile; second turn (a tool result in the messages): it answers. */
    provider.setHandler((request) => {
      const body = request.body as { model: string; messages: { role: string }[] };
      if (body.messages.some((message) => message.role === 'tool')) return chatCompletionStream({ model: body.model, deltas: ['Done.'] });
      return chatCompletionStream({
        model: body.model,
        toolCalls: [{ id: 'call_w1', name: 'writeFile', arguments: { path: 'chat-note.txt', content: 'from chat' } }],
      });
    });
    try {
      await start();
      const client = await connect();
      await client.connectionId();
      const toolResultOf = (request: RecordedRequest) =>
        JSON.stringify((request.body as { messages: { role: string; content: unknown }[] }).messages.find((message) => message.role === 'tool')?.content);
      const before = provider.requests.length;
      client.send({ type: 'chat', data: { message: 'write a note' } });
      const first = await client.next((message) => message.type === 'ai-response' && message.data['event'] === 'complete');
      expect(first.data['text']).toBe('Done.');
      const [offer, followUp] = provider.requests.slice(before);
      // Tools are offered to the model (the server advertises the "tools" feature)...
      const offered = ((offer!.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((tool) => tool.function.name);
      expect(offered).toEqual(expect.arrayContaining(['writeFile', 'calculateMath']));
      // ...and writeFile, flagged requiresConfirmation, answers USER_CONFIRMATION_REQUIRED without the grant.
      expect(toolResultOf(followUp!)).toContain('USER_CONFIRMATION_REQUIRED');
      const granted = provider.requests.length;
      client.send({ type: 'chat', data: { message: 'write a note', confirmedTools: ['writeFile'] } });
      await client.next((message) => message.type === 'ai-response' && message.data['event'] === 'complete' && message !== first);
      expect(toolResultOf(provider.requests[granted + 1]!)).not.toContain('USER_CONFIRMATION_REQUIRED');
      // disableTools turns them off for one message, as on /api/generate.
      const off = provider.requests.length;
      client.send({ type: 'chat', data: { message: 'no tools', disableTools: true } });
      await client.next((message) => message.type === 'ai-response' && message.data['event'] === 'complete' && message.data['text'] === '');
      expect((provider.requests[off]!.body as { tools?: unknown[] }).tools).toBeUndefined();
      client.send({ type: 'chat', data: { message: 'x', confirmedTools: 'writeFile' } });
      expect((await client.next((message) => message.type === 'error')).data['error']).toMatch(/confirmedTools must be an array/);
    } finally {
      provider.setHandler(upstream);
    }
  });

  it('joins rooms, broadcasts to them, and streams a room chat to every member', async () => {
    await start();
    const alice = await connect();
    const bob = await connect();
    const outsider = await connect();
    const [aliceId, bobId] = [await alice.connectionId(), await bob.connectionId()];
    expect(t.app.chat.joinRoom(aliceId, 'support')).toBe(true);
    expect(t.app.chat.joinRoom(bobId, 'support')).toBe(true);
    expect((await bob.next((message) => message.data['event'] === 'room_joined')).data).toMatchObject({ roomId: 'support', memberCount: 2 });
    expect(t.app.chat.broadcastToRoom('support', { type: 'system', data: { event: 'announcement', text: 'hello room' } })).toBe(2);
    await alice.next((message) => message.data['event'] === 'announcement');
    await bob.next((message) => message.data['event'] === 'announcement');
    alice.send({ type: 'chat', roomId: 'support', data: { message: 'team question' } });
    const seenByBob = await bob.next((message) => message.type === 'ai-response' && message.data['event'] === 'complete');
    expect(seenByBob.roomId).toBe('support');
    expect(outsider.messages.some((message) => message.type === 'ai-response' || message.data['event'] === 'announcement')).toBe(false);
    expect(t.app.chat.getRoomCount()).toBe(1);
    expect(t.app.chat.leaveRoom(bobId, 'support')).toBe(true);
  });

  it('drops a peer that stops answering heartbeats', async () => {
    // Two missed beats end the connection: at 40 ms a busy machine could end it before its welcome
    // (the connection id) had left the server, and the test then waited for a welcome never sent.
    await start({ heartbeatInterval: 250 });
    const dropped = new Promise<{ connectionId: string }>((resolve) => t.app.chat.once('disconnection', resolve));
    const silent = await connect({ autoPong: false });
    const id = await silent.connectionId();
    const closed = await silent.closed;
    expect(closed.code).toBe(1006); // terminated, no close frame
    expect((await dropped).connectionId).toBe(id);
    expect(t.app.chat.getConnectionCount()).toBe(0);
  });

  it('closes a connection over the limit with 1013 "Server at capacity"', async () => {
    await start({ maxConnections: 1 });
    await (await connect()).connectionId();
    const extra = new ChatSocket(new WebSocket(url, { headers: { 'x-api-key': key } }));
    clients.push(extra);
    expect(await extra.closed).toEqual({ code: 1013, reason: 'Server at capacity' });
  });

  it('answers malformed frames with an error, closes after too many (1008) and on an oversized frame (1009)', async () => {
    await start({ maxPayloadBytes: 1024, maxInvalidFrames: 3 });
    const client = await connect();
    await client.connectionId();
    client.send('not json');
    expect((await client.next((message) => message.type === 'error')).data).toEqual({ error: 'Invalid message format' });
    client.send({ type: 'chat', data: {} });
    client.send([1, 2]);
    expect((await client.closed).code).toBe(1008);
    const big = await connect();
    await big.connectionId();
    big.send({ type: 'chat', data: { message: 'x'.repeat(4096) } });
    expect((await big.closed).code).toBe(1009);
  });
});

describe('chat service options (enableSSE, enableWebSocket, streamingConfig)', () => {
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  beforeAll(async () => {
    t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-chat', OPENAI_BASE_URL: `${provider.url}/v1` } });
    apiKey = (await createMerchant(t.app, 'chat-options-shop')).apiKey;
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t.close());

  it('chats over the service WebSocket with enableWebSocket: true (not SSE)', async () => {
    const connections: unknown[] = [];
    const onConnection = (event: unknown) => connections.push(event);
    t.app.chat.on('connection', onConnection);
    try {
      const chunks: string[] = [];
      let completed: unknown;
      const text = await createEnhancedChatService({ baseUrl, apiKey, enableWebSocket: true }).streamChat({
        prompt: 'hi',
        onChunk: (chunk) => chunks.push(chunk),
        onComplete: (result) => (completed = result),
      });
      expect(text).toBe('Hello from the model');
      expect(chunks.join('')).toBe('Hello from the model');
      expect(completed).toMatchObject({ content: 'Hello from the model', usage: { inputTokens: 4, outputTokens: 3 }, provider: 'openai' });
      expect(connections).toHaveLength(1);
      await t.eventsCaughtUp();
      expect(t.events.filter((event) => event.type === 'llm.call').at(-1)).toMatchObject({
        merchantId: 'chat-options-shop',
        payload: { surface: 'websocket' },
      });
      await expect(createEnhancedChatService({ baseUrl, apiKey: `DE_${'2'.repeat(64)}`, enableWebSocket: true }).streamChat({ prompt: 'hi' })).rejects.toThrow(
        /refused or failed/,
      );
    } finally {
      t.app.chat.off('connection', onConnection);
    }
  });

  it('refuses a disabled transport clearly, at creation', () => {
    expect(() => createEnhancedChatService({ baseUrl, apiKey, enableSSE: false })).toThrow(/enableSSE is false and enableWebSocket is not true/);
    expect(() => createEnhancedChatService({ toolkit: { stream: () => Promise.reject(new Error('unused')) }, enableWebSocket: true })).toThrow(
      /enableWebSocket needs a baseUrl/,
    );
    // enableSSE: false with the WebSocket on is a working service chat.
    expect(() => createEnhancedChatService({ baseUrl, apiKey, enableSSE: false, enableWebSocket: true })).not.toThrow();
  });

  it('applies streamingConfig: onChunk gets the text in bufferSize pieces', async () => {
    const collect = async (streamingConfig: { bufferSize: number; latencyTarget: number }) => {
      const chunks: string[] = [];
      await createEnhancedChatService({ baseUrl, apiKey, streamingConfig }).streamChat({ prompt: 'hi', onChunk: (chunk) => chunks.push(chunk) });
      return chunks;
    };
    // A buffer larger than the answer and a latency target that never comes first: one piece at the end.
    expect(await collect({ bufferSize: 1_000_000, latencyTarget: 600_000 })).toEqual(['Hello from the model']);
    // A buffer of 6 bytes: each piece is passed on once 6 bytes are held.
    expect(await collect({ bufferSize: 6, latencyTarget: 600_000 })).toEqual(['Hello from', ' the model']);
  });
});

describe('SSE chat service (createEnhancedChatService)', () => {
  it('streams chunks from a Switchyard service and completes with usage', async () => {
    const t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-chat', OPENAI_BASE_URL: `${provider.url}/v1` } });
    try {
      const { apiKey } = await createMerchant(t.app, 'sse-shop');
      const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const chunks: string[] = [];
      let completed: unknown;
      const text = await createEnhancedChatService({ baseUrl, apiKey }).streamChat({
        prompt: 'hi',
        onChunk: (chunk) => chunks.push(chunk),
        onComplete: (result) => (completed = result),
        options: { disableTools: true },
      });
      expect(text).toBe('Hello from the model');
      expect(chunks).toEqual(['Hello', ' from', ' the model']);
      expect(completed).toMatchObject({ content: 'Hello from the model', usage: { inputTokens: 4, outputTokens: 3 }, provider: 'openai' });
      const errors: Error[] = [];
      await expect(
        createEnhancedChatService({ baseUrl, apiKey: `DE_${'1'.repeat(64)}` }).streamChat({ prompt: 'hi', onError: (error) => errors.push(error) }),
      ).rejects.toThrow(/401/);
      expect(errors).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
