import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARY_INSTRUCTIONS, SUMMARY_PREFIX } from '../../src/generation/memory/conversation-memory.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * Conversation memory over HTTP (issue 26): /api/generate and /api/stream with `context.sessionId`
 * on the real app, its toolkit made as the service makes it over the app's StateStore, against a
 * local fake speaking OpenAI's Chat Completions wire that records what it was sent. A session is
 * the caller's merchant's: another merchant's same session id is another conversation.
 */

interface ChatBody {
  readonly model: string;
  readonly stream?: boolean;
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
}

const messagesOf = (request: RecordedRequest) =>
  (request.body as ChatBody).messages.map((message) => ({
    role: message.role,
    content: typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
  }));
const isSummaryCall = (request: RecordedRequest) =>
  messagesOf(request).some((message) => message.role === 'system' && message.content.includes(SUMMARY_INSTRUCTIONS));

function openAiLike(request: RecordedRequest) {
  const body = request.body as ChatBody;
  if (isSummaryCall(request)) return chatCompletion({ model: body.model, content: 'SUMMARY-HTTP' });
  const last = messagesOf(request).at(-1)?.content ?? '';
  if (body.stream === true)
    return chatCompletionStream({ model: body.model, deltas: ['Streamed ', `reply to: ${last}`], usage: { promptTokens: 5, completionTokens: 3 } });
  return chatCompletion({ model: body.model, content: `Reply to: ${last}`, usage: { promptTokens: 5, completionTokens: 3 } });
}

let provider: FakeHttpServer;
beforeAll(async () => {
  provider = await startFakeHttpServer(openAiLike);
});
afterAll(async () => provider.close());

describe('conversation memory over HTTP', () => {
  let t: TestApp;
  let keyA: string;
  let keyB: string;
  let keyC: string;

  // One app for the file (sessions and merchants of each test are their own): building it is the slow part.
  beforeAll(async () => {
    t = await createTestApp({
      toolkitEnv: {
        OPENAI_API_KEY: 'sk-http-memory',
        OPENAI_BASE_URL: `${provider.url}/v1`,
        NEUROLINK_MEMORY_TOKEN_BUDGET: '60',
        NEUROLINK_MEMORY_KEEP_RECENT_TURNS: '1',
      },
    });
    keyA = (await createMerchant(t.app, 'memory-shop-a')).apiKey;
    keyB = (await createMerchant(t.app, 'memory-shop-b')).apiKey;
    keyC = (await createMerchant(t.app, 'memory-shop-c')).apiKey;
  });
  afterAll(async () => t.close());

  /** One /api/generate call and the requests the fake received for it. */
  async function generate(key: string, payload: Record<string, unknown>) {
    const before = provider.requests.length;
    const response = await t.app.inject({ method: 'POST', url: '/api/generate', headers: withKey(key), payload: { disableTools: true, ...payload } });
    return { response, sent: provider.requests.slice(before) };
  }
  const turn = (text: string, sessionId: string) => ({ input: { text }, context: { sessionId } });

  it("sends a merchant's second call its first exchange; another merchant's same session id sees nothing", async () => {
    const first = await generate(keyA, turn('My order number is 4711.', 'support-1'));
    expect(first.response.statusCode, first.response.body).toBe(200);
    const second = await generate(keyA, turn('What is my order number?', 'support-1'));
    expect(second.response.statusCode, second.response.body).toBe(200);
    expect(messagesOf(second.sent[0]!)).toEqual([
      { role: 'user', content: 'My order number is 4711.' },
      { role: 'assistant', content: 'Reply to: My order number is 4711.' },
      { role: 'user', content: 'What is my order number?' },
    ]);

    const other = await generate(keyB, turn('What is my order number?', 'support-1'));
    expect(other.response.statusCode, other.response.body).toBe(200);
    expect(messagesOf(other.sent[0]!)).toEqual([{ role: 'user', content: 'What is my order number?' }]);
    expect(JSON.stringify(other.sent[0]!.body)).not.toContain('4711');

    // Kept in the app's StateStore under each merchant.
    const keptA = await t.state.conversations.read({ merchantId: 'memory-shop-a', sessionId: 'support-1' });
    expect(keptA.turns).toHaveLength(4);
    const keptB = await t.state.conversations.read({ merchantId: 'memory-shop-b', sessionId: 'support-1' });
    expect(keptB.turns.map((message) => message.content)).toEqual(['What is my order number?', 'Reply to: What is my order number?']);
  });

  it('remembers a streamed exchange (/api/stream) for the next /api/generate of the session', async () => {
    const streamed = await t.app.inject({
      method: 'POST',
      url: '/api/stream',
      headers: withKey(keyA),
      payload: { disableTools: true, ...turn('Stream a greeting.', 'support-stream') },
    });
    expect(streamed.statusCode).toBe(200);
    expect(streamed.body).toContain('"type":"complete"');
    const next = await generate(keyA, turn('Thanks.', 'support-stream'));
    expect(messagesOf(next.sent[0]!)).toEqual([
      { role: 'user', content: 'Stream a greeting.' },
      { role: 'assistant', content: 'Streamed reply to: Stream a greeting.' },
      { role: 'user', content: 'Thanks.' },
    ]);
  });

  it('summarises past the token budget: the provider gets the summary call, then the summary instead of the old exchange', async () => {
    const long = (marker: string) => `${marker} ${'y'.repeat(200)}`;
    await generate(keyC, turn(long('first-marker'), 'support-long'));
    await generate(keyC, turn(long('second-marker'), 'support-long'));
    const third = await generate(keyC, turn('What came first?', 'support-long'));
    expect(third.response.statusCode, third.response.body).toBe(200);
    expect(third.sent.map(isSummaryCall)).toEqual([true, false]);
    expect(JSON.stringify(third.sent[0]!.body)).toContain('first-marker');
    const messages = messagesOf(third.sent[1]!);
    expect(messages[0]).toEqual({ role: 'system', content: `${SUMMARY_PREFIX}SUMMARY-HTTP` });
    expect(JSON.stringify(messages)).not.toContain('first-marker');
    expect(JSON.stringify(messages)).toContain('second-marker');
    // The summary call is the merchant's too: recorded as one of its model calls.
    await t.eventsCaughtUp();
    const calls = t.events.filter((event) => event.type === 'llm.call' && event.merchantId === 'memory-shop-c');
    expect(calls).toHaveLength(4);
  });

  it('answers 400 naming context.sessionId for a session id that is not a non-empty string, before any provider call', async () => {
    for (const sessionId of [7, '', 's'.repeat(257)]) {
      const { response, sent } = await generate(keyA, { input: { text: 'hello' }, context: { sessionId } });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'INVALID_REQUEST', option: 'context.sessionId' });
      expect(response.json().error).toMatch(/context\.sessionId/);
      expect(sent).toEqual([]);
    }
  });
});
