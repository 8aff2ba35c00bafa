import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DefaultNeuroLink } from '../../src/adapters/toolkit/default-neurolink.js';
import { detectCardNumbers } from '../../src/guardrails/card-number.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';
import { jsonWithoutIds } from '../helpers/redact-ids.js';

/**
 * Guardrails on the toolkit's surfaces (issue 38): `/api/generate`, `/api/stream` and the library
 * (`new NeuroLink({ guardrails })` and per call) against a local fake speaking OpenAI's Chat Completions
 * wire. With the defaults, the fake never receives a card number from the prompt, the system prompt or a
 * tool turn of the history; the answer restores the caller's own and masks the model's, a split one in a
 * stream too; a blocking guard refuses before any provider call.
 */

const pan = '4111 1111 1111 1111';

/** The model refers to the caller's card by the placeholder it read, and writes one of its own, split over two deltas when streamed. */
function answer(request: RecordedRequest) {
  const body = request.body as { model: string; stream?: boolean };
  const placeholder = /\[CARD_\d+\]/.exec(request.bodyText)?.[0] ?? '[none]';
  if (body.stream === true)
    return chatCompletionStream({
      model: body.model,
      deltas: [`Charged ${placeholder}; new card 4242 4242`, ' 4242 4242.'],
      usage: { promptTokens: 10, completionTokens: 5 },
    });
  return chatCompletion({
    model: body.model,
    content: `Charged ${placeholder}; new card 4242 4242 4242 4242.`,
    usage: { promptTokens: 10, completionTokens: 5 },
  });
}

let provider: FakeHttpServer;

beforeAll(async () => {
  provider = await startFakeHttpServer(answer);
});
afterAll(async () => provider.close());

function expectNoCardNumberUpstream(): void {
  for (const request of provider.requests) expect(detectCardNumbers(request.bodyText)).toEqual([]);
}

describe('/api/generate and /api/stream with the default guards', () => {
  let t: TestApp;
  let key: string;

  beforeEach(async () => {
    t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-http-fake', OPENAI_BASE_URL: `${provider.url}/v1` } });
    key = (await createMerchant(t.app, 'guarded-gen')).apiKey;
  });
  afterEach(async () => t.close());

  it('masks the card in the prompt, the system prompt and the history, and restores it in the answer', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/generate',
      headers: withKey(key),
      payload: {
        input: { text: `Refund ${pan}` },
        systemPrompt: `Cards on file: ${pan}`,
        conversationHistory: [
          { role: 'user', content: 'my old card was 5555-5555-5555-4444' },
          { role: 'assistant', content: `Noted; the new one is ${pan}.` },
        ],
        disableTools: true,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as { content: string }).content).toBe(`Charged ${pan}; new card [CARD_3].`);
    expectNoCardNumberUpstream();
  });

  it('masks a card number split across two streamed chunks', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/stream',
      headers: withKey(key),
      payload: { input: { text: `Refund ${pan}` }, disableTools: true },
    });
    expect(response.statusCode, response.body).toBe(200);
    const text = response.body
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => {
        try {
          const data = JSON.parse(line.slice(6)) as { type?: string; content?: string };
          return data.type === 'chunk' || data.content !== undefined ? (data.content ?? '') : '';
        } catch {
          return '';
        }
      })
      .join('');
    expect(text).toContain(`Charged ${pan}; new card [CARD_2].`);
    expect(text).not.toContain('4242');
    expectNoCardNumberUpstream();
  });

  it('refuses a request a blocking guard matches with 400, before any provider call', async () => {
    const before = provider.requests.length;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/generate',
      headers: { ...withKey(key), 'x-switchyard-guardrails': 'card=block' },
      payload: { input: { text: `Refund ${pan}` }, disableTools: true },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('card');
    expect(jsonWithoutIds(response.body)).not.toContain('4111');
    expect(provider.requests.length).toBe(before);
  });
});

describe('the library', () => {
  const env = { OPENAI_API_KEY: 'sk-lib-fake', OPENAI_BASE_URL: `${'http://127.0.0.1:1'}/v1` };

  it('applies the defaults, the instance’s guardrails and a call’s own, only ever stricter', async () => {
    const neurolink = new DefaultNeuroLink({
      env: { ...env, OPENAI_BASE_URL: `${provider.url}/v1` },
      builtInTools: [],
      guardrails: { email: { action: 'mask' }, card: { action: 'log' } },
    });
    const result = await neurolink.generate({ input: { text: `Mail jane@example.com about ${pan}` }, provider: 'openai', disableTools: true });
    expect(result.content).toBe(`Charged ${pan}; new card [CARD_2].`);
    const sent = provider.requests.at(-1)!.bodyText;
    expect(sent).toContain('[EMAIL_1]');
    expect(sent).not.toContain('jane@example.com');
    expectNoCardNumberUpstream();
    const before = provider.requests.length;
    await expect(
      neurolink.generate({ input: { text: `Mail jane@example.com` }, provider: 'openai', disableTools: true, guardrails: { email: { action: 'block' } } }),
    ).rejects.toMatchObject({ code: 'SY_GUARDRAIL_BLOCKED', details: { guard: 'email', stage: 'input' } });
    expect(provider.requests.length).toBe(before);
  });

  it('restores the caller’s card in a stream and masks the model’s', async () => {
    const neurolink = new DefaultNeuroLink({ env: { ...env, OPENAI_BASE_URL: `${provider.url}/v1` }, builtInTools: [] });
    const streamed = await neurolink.stream({ input: { text: `Refund ${pan}` }, provider: 'openai', disableTools: true });
    let text = '';
    for await (const chunk of streamed.stream) text += chunk.content;
    expect(text).toBe(`Charged ${pan}; new card [CARD_2].`);
    expect((await streamed.final).content).toBe(text);
  });
});
