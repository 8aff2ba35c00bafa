import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicMessage, anthropicTextStream } from '../fixtures/providers/anthropic-wire.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The gateway adds nothing its client did not send (issue 34, point 1): a `/v1/*` request without
 * `temperature` or an output limit reaches the upstream without them (the provider's own defaults
 * apply), on every wire and on translated routes too; where the upstream requires a limit
 * (Anthropic's `max_tokens`) it gets the model's maximum output, not a small fixed default. The
 * toolkit's own API keeps NeuroLink's documented defaults (temperature 0.7, maxTokens 1000).
 */

type Body = Record<string, unknown>;

let gpt: FakeHttpServer;
let claude: FakeHttpServer;
let t: TestApp;
let openai: OpenAI;
let anthropic: Anthropic;
let apiKey: string;

/** The last request a fake received on `path` whose body mentions `marker`. */
function sentTo(fake: FakeHttpServer, path: string, marker: string): Body {
  const found = fake.requests.filter((request: RecordedRequest) => request.path === path && request.bodyText.includes(marker)).at(-1);
  if (found === undefined) throw new Error(`${fake.url}${path} received no request mentioning ${marker}`);
  return found.body as Body;
}

/** What the toolkit's defaults would have added: none of these may appear unless the client sent them. */
const injected = ['temperature', 'max_tokens', 'max_completion_tokens', 'max_output_tokens'];

beforeAll(async () => {
  gpt = await startFakeHttpServer((request) => chatCompletion({ model: String((request.body as Body)['model']), content: 'plain answer' }));
  claude = await startFakeHttpServer((request) =>
    (request.body as Body)['stream'] === true ? anthropicTextStream(['Hi ', 'from Claude']) : anthropicMessage([{ type: 'text', text: 'Hi from Claude' }]),
  );
  t = await createTestApp({
    toolkitEnv: {
      OPENAI_API_KEY: 'sk-upstream',
      OPENAI_BASE_URL: `${gpt.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-upstream',
      ANTHROPIC_BASE_URL: `${claude.url}/v1`,
    },
  });
  ({ apiKey } = await createMerchant(t.app, 'no-defaults-shop'));
  const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  openai = new OpenAI({ apiKey, baseURL: `${origin}/v1`, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey, baseURL: origin, maxRetries: 0 });
}, 60_000);
afterAll(async () => {
  await t.close();
  await gpt.close();
  await claude.close();
});

describe('a parameter the client did not send is not sent upstream', () => {
  it('chat completions to an OpenAI upstream: no temperature, no output limit', async () => {
    await openai.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'nodef-1' }] });
    const sent = sentTo(gpt, '/v1/chat/completions', 'nodef-1');
    for (const field of injected) expect(sent).not.toHaveProperty(field);
  });

  it('chat completions to an OpenAI upstream, streamed: no temperature, no output limit', async () => {
    const stream = await openai.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'nodef-2' }], stream: true });
    for await (const _chunk of stream) {
      // drained: the upstream request has been made
    }
    const sent = sentTo(gpt, '/v1/chat/completions', 'nodef-2');
    for (const field of injected) expect(sent).not.toHaveProperty(field);
  });

  it("chat completions to Anthropic (translated): no temperature, and the model's maximum output as the max_tokens Anthropic requires", async () => {
    await openai.chat.completions.create({ model: 'anthropic/claude-sonnet-4-20250514', messages: [{ role: 'user', content: 'nodef-3' }] });
    const sent = sentTo(claude, '/v1/messages', 'nodef-3');
    expect(sent).not.toHaveProperty('temperature');
    // claude-sonnet-4's maximum output (64,000), never the toolkit's 1,000.
    expect(sent['max_tokens']).toBe(64_000);
  });

  it('the client-given values are passed as given', async () => {
    await openai.chat.completions.create({
      model: 'anthropic/claude-sonnet-4-20250514',
      messages: [{ role: 'user', content: 'nodef-4' }],
      temperature: 0.2,
      max_tokens: 77,
    });
    const sent = sentTo(claude, '/v1/messages', 'nodef-4');
    expect(sent['temperature']).toBe(0.2);
    expect(sent['max_tokens']).toBe(77);
  });

  it('messages with max_tokens and no temperature: Anthropic receives the max_tokens and no temperature', async () => {
    // As Claude Code sends it: streamed, with a large max_tokens.
    await anthropic.messages
      .stream({ model: 'anthropic/claude-sonnet-4-20250514', max_tokens: 64_000, messages: [{ role: 'user', content: 'nodef-5' }] })
      .done();
    const sent = sentTo(claude, '/v1/messages', 'nodef-5');
    expect(sent).not.toHaveProperty('temperature');
    expect(sent['max_tokens']).toBe(64_000);
  });

  it('messages to an OpenAI upstream (translated): no temperature', async () => {
    await anthropic.messages.create({ model: 'openai/gpt-4o-mini', max_tokens: 300, messages: [{ role: 'user', content: 'nodef-6' }] });
    const sent = sentTo(gpt, '/v1/chat/completions', 'nodef-6');
    expect(sent).not.toHaveProperty('temperature');
  });

  it('responses without max_output_tokens: no temperature and no output limit upstream', async () => {
    await openai.responses.create({ model: 'openai/gpt-4o-mini', input: 'nodef-7' });
    const path = gpt.requests.some((request) => request.path === '/v1/responses' && request.bodyText.includes('nodef-7'))
      ? '/v1/responses'
      : '/v1/chat/completions';
    const sent = sentTo(gpt, path, 'nodef-7');
    for (const field of injected) expect(sent).not.toHaveProperty(field);
  });

  it("responses to Anthropic (translated): the model's maximum output, no temperature", async () => {
    await openai.responses.create({ model: 'anthropic/claude-sonnet-4-20250514', input: 'nodef-8' });
    const sent = sentTo(claude, '/v1/messages', 'nodef-8');
    expect(sent).not.toHaveProperty('temperature');
    expect(sent['max_tokens']).toBe(64_000);
  });
});

describe("the toolkit's own API keeps NeuroLink's documented defaults", () => {
  it('POST /api/generate without temperature or maxTokens sends 0.7 and 1000', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/generate',
      headers: { authorization: `Bearer ${apiKey}` },
      payload: { input: { text: 'nodef-9' }, provider: 'openai', model: 'gpt-4o-mini' },
    });
    expect(response.statusCode).toBe(200);
    const sent = sentTo(gpt, '/v1/chat/completions', 'nodef-9');
    expect(sent['temperature']).toBe(0.7);
    expect(sent['max_tokens']).toBe(1000);
  });
});
