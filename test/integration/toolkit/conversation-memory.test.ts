import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DefaultNeuroLink } from '../../../src/adapters/toolkit/default-neurolink.js';
import type { ConversationMemoryOptions } from '../../../src/generation/memory/conversation-memory-settings.js';
import { SUMMARY_INSTRUCTIONS, SUMMARY_PREFIX } from '../../../src/generation/memory/conversation-memory.js';
import { InvalidRequestError } from '../../../src/generation/errors/provider-errors.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream, chatError } from '../../fixtures/providers/openai-wire.js';

/**
 * Conversation memory (issue 26) of the real NeuroLink over the real provider adapter, against a
 * local fake speaking OpenAI's Chat Completions wire that records every request it received: what
 * the model is sent is what these tests check.
 */

interface Message {
  readonly role: string;
  readonly content: unknown;
}
interface ChatBody {
  readonly model: string;
  readonly stream?: boolean;
  readonly messages: readonly Message[];
}

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : '';
const messagesOf = (request: RecordedRequest) =>
  (request.body as ChatBody).messages.map((message) => ({ role: message.role, content: textOf(message.content) }));
const isSummaryCall = (request: RecordedRequest) =>
  messagesOf(request).some((message) => message.role === 'system' && message.content.includes(SUMMARY_INSTRUCTIONS));

let answers = 0;
let refuseSummaries = false;
function openAiLike(request: RecordedRequest) {
  const body = request.body as ChatBody;
  if (isSummaryCall(request) && refuseSummaries) return chatError('bad-request');
  if (isSummaryCall(request)) return chatCompletion({ model: body.model, content: 'SUMMARY-7 (the user sent a long first message)' });
  answers += 1;
  const content = `Answer ${answers}.`;
  if (body.stream === true)
    return chatCompletionStream({ model: body.model, deltas: ['Answer ', `${answers}.`], usage: { promptTokens: 5, completionTokens: 2 } });
  return chatCompletion({ model: body.model, content, usage: { promptTokens: 5, completionTokens: 2 } });
}

let provider: FakeHttpServer;
let workDir: string;

beforeAll(async () => {
  provider = await startFakeHttpServer(openAiLike);
  workDir = mkdtempSync(join(tmpdir(), 'neurolink-memory-'));
});
afterAll(async () => {
  await provider.close();
  rmSync(workDir, { recursive: true, force: true });
});
beforeEach(() => {
  answers = 0;
  refuseSummaries = false;
});

function toolkit(conversationMemory: ConversationMemoryOptions = {}, extraEnv: Record<string, string> = {}, warn: (message: string) => void = () => undefined) {
  return new DefaultNeuroLink({
    cwd: workDir,
    env: { OPENAI_API_KEY: 'sk-memory-fake', OPENAI_BASE_URL: `${provider.url}/v1`, ...extraEnv },
    conversationMemory,
    warn,
  });
}

/** The requests the fake received while `run` ran. */
async function sent(run: () => Promise<unknown>): Promise<RecordedRequest[]> {
  const before = provider.requests.length;
  await run();
  return provider.requests.slice(before);
}

const ask = (text: string, sessionId: string) => ({ input: { text }, disableTools: true, context: { sessionId } });

describe('conversation memory of the library', () => {
  it('sends the second call of a session its first exchange; another session starts empty', async () => {
    const neurolink = toolkit();
    await neurolink.generate(ask('My name is Ada.', 'chat-1'));
    const [second] = await sent(() => neurolink.generate(ask('What is my name?', 'chat-1')));
    expect(messagesOf(second!)).toEqual([
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: 'Answer 1.' },
      { role: 'user', content: 'What is my name?' },
    ]);
    const [other] = await sent(() => neurolink.generate(ask('Who am I?', 'chat-2')));
    expect(messagesOf(other!)).toEqual([{ role: 'user', content: 'Who am I?' }]);
    expect((await neurolink.getConversationHistory('chat-1')).turns.map((turn) => [turn.role, turn.content])).toEqual([
      ['user', 'My name is Ada.'],
      ['assistant', 'Answer 1.'],
      ['user', 'What is my name?'],
      ['assistant', 'Answer 2.'],
    ]);
    expect(await neurolink.clearConversationSession('chat-1')).toBe(true);
    const [afterClear] = await sent(() => neurolink.generate(ask('Again?', 'chat-1')));
    expect(messagesOf(afterClear!)).toEqual([{ role: 'user', content: 'Again?' }]);
  });

  it('remembers a streamed answer once the stream has been read to its end', async () => {
    const neurolink = toolkit();
    const streamed = await neurolink.stream(ask('Stream me something.', 'chat-stream'));
    let text = '';
    for await (const chunk of streamed.stream) text += chunk.content;
    expect(text).toBe('Answer 1.');
    const [next] = await sent(() => neurolink.generate(ask('And now?', 'chat-stream')));
    expect(messagesOf(next!).slice(0, 2)).toEqual([
      { role: 'user', content: 'Stream me something.' },
      { role: 'assistant', content: 'Answer 1.' },
    ]);
  });

  it('puts the remembered history before the caller’s own conversationHistory and keeps the system prompt', async () => {
    const neurolink = toolkit();
    await neurolink.generate(ask('First.', 'chat-order'));
    const [next] = await sent(() =>
      neurolink.generate({ ...ask('Third.', 'chat-order'), systemPrompt: 'Be brief.', conversationHistory: [{ role: 'user', content: 'Second (given).' }] }),
    );
    expect(messagesOf(next!)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'First.' },
      { role: 'assistant', content: 'Answer 1.' },
      { role: 'user', content: 'Second (given).' },
      { role: 'user', content: 'Third.' },
    ]);
  });

  it('past the token budget, summarises the older exchanges with one model call and sends the summary, not the old messages', async () => {
    // ~4 characters a token: one long exchange (~55 tokens) fits a budget of 60, two do not.
    const neurolink = toolkit({ tokenBudget: 60, keepRecentTurns: 1 });
    const long = (marker: string) => `${marker} ${'x'.repeat(200)}`;
    await neurolink.generate(ask(long('alpha-marker'), 'chat-long'));
    const second = await sent(() => neurolink.generate(ask(long('beta-marker'), 'chat-long')));
    expect(second.filter(isSummaryCall)).toHaveLength(0);
    const third = await sent(() => neurolink.generate(ask('gamma: what did I send first?', 'chat-long')));
    expect(third).toHaveLength(2);
    const [summaryCall, call] = third;
    expect(isSummaryCall(summaryCall!)).toBe(true);
    const summaryInput = messagesOf(summaryCall!).find((message) => message.role === 'user')!.content;
    expect(summaryInput).toContain('alpha-marker');
    expect(summaryInput).not.toContain('beta-marker');
    expect((summaryCall!.body as { tools?: unknown }).tools).toBeUndefined();
    const messages = messagesOf(call!);
    expect(messages[0]).toEqual({ role: 'system', content: `${SUMMARY_PREFIX}SUMMARY-7 (the user sent a long first message)` });
    expect(JSON.stringify(messages)).not.toContain('alpha-marker');
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: long('beta-marker') },
      { role: 'assistant', content: 'Answer 2.' },
      { role: 'user', content: 'gamma: what did I send first?' },
    ]);
    const kept = await neurolink.getConversationHistory('chat-long');
    expect(kept.summary).toBe('SUMMARY-7 (the user sent a long first message)');
    expect(kept.turns.map((turn) => turn.content)).toEqual([long('beta-marker'), 'Answer 2.', 'gamma: what did I send first?', 'Answer 3.']);
  });

  it('sends the whole history, with a warning, when the summarising call fails; the next call tries again', async () => {
    const warnings: string[] = [];
    const neurolink = toolkit({ tokenBudget: 60, keepRecentTurns: 1 }, {}, (message) => warnings.push(message));
    const long = (marker: string) => `${marker} ${'x'.repeat(200)}`;
    await neurolink.generate(ask(long('alpha-marker'), 'chat-refused'));
    await neurolink.generate(ask(long('beta-marker'), 'chat-refused'));
    refuseSummaries = true;
    const third = await sent(() => neurolink.generate(ask('gamma', 'chat-refused')));
    expect(third.map(isSummaryCall)).toEqual([true, false]);
    expect(messagesOf(third[1]!).map((message) => message.content.split(' ')[0])).toEqual(['alpha-marker', 'Answer', 'beta-marker', 'Answer', 'gamma']);
    expect(warnings.some((message) => message.includes('could not be summarised'))).toBe(true);
    refuseSummaries = false;
    const fourth = await sent(() => neurolink.generate(ask('delta', 'chat-refused')));
    expect(fourth.map(isSummaryCall)).toEqual([true, false]);
    expect(JSON.stringify(messagesOf(fourth[1]!))).not.toContain('alpha-marker');
  });

  it('keeps at most maxTurnsPerSession exchanges: the oldest are forgotten', async () => {
    const neurolink = toolkit({ maxTurnsPerSession: 2 });
    for (const text of ['one', 'two', 'three']) await neurolink.generate(ask(text, 'chat-bound'));
    const [fourth] = await sent(() => neurolink.generate(ask('four', 'chat-bound')));
    expect(messagesOf(fourth!).map((message) => message.content)).toEqual(['two', 'Answer 2.', 'three', 'Answer 3.', 'four']);
    expect((await neurolink.getConversationHistory('chat-bound')).turns).toHaveLength(4);
  });

  it('refuses a session id that is not a non-empty string, naming context.sessionId, before any provider call', async () => {
    const neurolink = toolkit();
    for (const sessionId of [42, '', 'x'.repeat(257)]) {
      const before = provider.requests.length;
      const error = await neurolink.generate({ input: { text: 'hi' }, context: { sessionId } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((error as InvalidRequestError).option).toBe('context.sessionId');
      expect(provider.requests.length).toBe(before);
    }
  });

  it('remembers nothing when turned off (option or NEUROLINK_MEMORY_ENABLED=false)', async () => {
    for (const neurolink of [toolkit({ enabled: false }), toolkit({}, { NEUROLINK_MEMORY_ENABLED: 'false' })]) {
      expect(neurolink.conversationMemory.enabled).toBe(false);
      await neurolink.generate(ask('Remember this.', 'chat-off'));
      const [next] = await sent(() => neurolink.generate(ask('Did you?', 'chat-off')));
      expect(messagesOf(next!)).toEqual([{ role: 'user', content: 'Did you?' }]);
    }
  });

  it('reads NEUROLINK_MEMORY_* settings and names a bad one', () => {
    expect(toolkit({}, { NEUROLINK_MEMORY_TOKEN_BUDGET: '123', NEUROLINK_MEMORY_TTL: '7d' }).conversationMemory).toMatchObject({
      enabled: true,
      tokenBudget: 123,
      ttlSeconds: 7 * 86_400,
    });
    expect(() => toolkit({}, { NEUROLINK_MEMORY_MAX_TURNS_PER_SESSION: 'many' })).toThrow(/NEUROLINK_MEMORY_MAX_TURNS_PER_SESSION="many"/);
  });
});
