import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiChatWireClient } from '../../../src/adapters/llm/openai-chat-wire-client.js';
import { AIProviderError } from '../../../src/generation/errors/ai-provider-error.js';
import type { LanguageModelClient } from '../../../src/generation/language-model-client.js';
import { type FakeHttpServer, startFakeHttpServer } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletionStream } from '../../fixtures/providers/openai-wire.js';
import { baseRequest } from './openai-family-contract.js';

/** What the wire client must never hand over: its own requests go to the fake, not here. */
const unusedFallback: LanguageModelClient = {
  provider: 'openai',
  modelId: 'gpt-4o-mini',
  supportsTools: true,
  generate: () => Promise.reject(new Error('the fallback was not expected to be called')),
  stream: () => {
    throw new Error('the fallback was not expected to be called');
  },
};

// The OpenAI-family contract (openai.test.ts and its siblings) covers this client's answers and errors;
// these are the limits only it sets, since the AI SDK's fetch brings its own.
describe('OpenAI-wire client limits', () => {
  let fake: FakeHttpServer;
  let client: LanguageModelClient;

  beforeAll(async () => {
    fake = await startFakeHttpServer(() => new Promise(() => undefined));
    client = createOpenAiChatWireClient({
      provider: 'openai',
      modelId: 'gpt-4o-mini',
      url: `${fake.url}/v1/chat/completions`,
      headers: {},
      fallback: () => unusedFallback,
      silenceLimitMs: 200,
    });
  });
  afterAll(async () => {
    await fake.close();
  });

  it('a provider silent past the limit with no deadline set → retryable network error, not a call that hangs', async () => {
    fake.setHandler(() => new Promise(() => undefined));
    const error = await client.generate(baseRequest()).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(AIProviderError);
    expect((error as AIProviderError).isRetryable).toBe(true);
    expect((error as AIProviderError).message).toMatch(/network error \(ETIMEDOUT\)/);
  });

  it('a stream that stalls after its first delta past the limit → the delta, then a retryable error', async () => {
    const opening = (chatCompletionStream({ model: 'gpt-4o-mini', deltas: ['partial'] }).body as string)
      .split('\n\n')
      .filter((event) => event.includes('partial'));
    fake.setHandler(() => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: (async function* () {
        for (const event of opening) yield `${event}\n\n`;
        await new Promise(() => undefined);
      })(),
    }));
    const stream = client.stream(baseRequest());
    const deltas: string[] = [];
    const failure = await (async () => {
      for await (const delta of stream.textStream) deltas.push(delta);
    })().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(deltas).toEqual(['partial']);
    expect(failure).toBeInstanceOf(AIProviderError);
    expect((failure as AIProviderError).isRetryable).toBe(true);
  });
});
