import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicError, anthropicMessage, anthropicTokenCount } from '../fixtures/providers/anthropic-wire.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Request fidelity of /v1/responses and /v1/messages (issue 23): sampling and tool-use parameters
 * reach the upstream (read back from local fakes speaking OpenAI's and Anthropic's wire), a forced
 * tool choice makes the upstream call the tool, the client's anthropic-* headers reach an Anthropic
 * upstream only, count_tokens asks Anthropic's own counter, and image URLs follow
 * GATEWAY_ALLOW_IMAGE_URLS. Driven by the official `openai` and `@anthropic-ai/sdk` clients.
 */

type Body = Record<string, unknown> & { messages: { role: string; content: unknown }[]; tools?: unknown[]; tool_choice?: unknown };

const weather = { city: 'Paris' };

/** OpenAI wire: a tool call whenever the request asks for one (tool_choice required or named), text otherwise. */
function openAiUpstream(request: RecordedRequest) {
  const body = request.body as Body;
  if (request.path === '/v1/responses') return responsesAnswer(String(body['model']));
  const forced = body.tool_choice === 'required' || typeof body.tool_choice === 'object';
  if (body.tools !== undefined && forced)
    return chatCompletion({ model: String(body['model']), toolCalls: [{ id: 'call_f1', name: 'get_weather', arguments: weather }] });
  return chatCompletion({ model: String(body['model']), content: 'plain answer', usage: { promptTokens: 9, completionTokens: 2 } });
}

/** Responses wire: a completed response with one message (what OpenAI's own API answers a passed-through request). */
function responsesAnswer(model: string) {
  const output = [
    { id: 'msg_f1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'plain answer', annotations: [] }] },
  ];
  const usage = { input_tokens: 9, output_tokens: 2, total_tokens: 11 };
  return {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'resp_f1', object: 'response', created_at: 1, status: 'completed', model, output, usage }),
  };
}

/** Anthropic wire: count_tokens answers 4242 (a 500 when asked to fail); messages call the tool when tool_choice forces one. */
function anthropicUpstream(request: RecordedRequest) {
  const body = request.body as Body;
  if (request.path === '/v1/messages/count_tokens')
    return JSON.stringify(body.messages).includes('count fails') ? anthropicError(500, 'api_error', 'Internal server error') : anthropicTokenCount(4242);
  const choice = body.tool_choice as { type?: string } | undefined;
  if (body.tools !== undefined && (choice?.type === 'any' || choice?.type === 'tool'))
    return anthropicMessage([{ type: 'tool_use', id: 'toolu_f1', name: 'get_weather', input: weather }]);
  return anthropicMessage([{ type: 'text', text: 'Hi from Claude' }]);
}

let gpt: FakeHttpServer;
let claude: FakeHttpServer;
let strict: TestApp;
let lenient: TestApp;
let openai: OpenAI;
let anthropic: Anthropic;
let lenientOpenai: OpenAI;
let lenientAnthropic: Anthropic;

async function clientsOf(t: TestApp, merchant: string): Promise<{ openai: OpenAI; anthropic: Anthropic }> {
  const { apiKey } = await createMerchant(t.app, merchant);
  const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { openai: new OpenAI({ apiKey, baseURL: `${origin}/v1`, maxRetries: 0 }), anthropic: new Anthropic({ apiKey, baseURL: origin, maxRetries: 0 }) };
}

beforeAll(async () => {
  gpt = await startFakeHttpServer(openAiUpstream);
  claude = await startFakeHttpServer(anthropicUpstream);
  const toolkitEnv = {
    OPENAI_API_KEY: 'sk-upstream',
    OPENAI_BASE_URL: `${gpt.url}/v1`,
    // The Responses API reaches a Chat Completions server by translation, whose mapping these tests check
    // (OpenAI's own API takes it natively: test/contract/gateway-native-pass-through.test.ts).
    OPENAI_COMPATIBLE_API_KEY: 'sk-upstream',
    OPENAI_COMPATIBLE_BASE_URL: `${gpt.url}/v1`,
    ANTHROPIC_API_KEY: 'sk-ant-upstream',
    ANTHROPIC_BASE_URL: `${claude.url}/v1`,
  };
  strict = await createTestApp({ toolkitEnv });
  lenient = await createTestApp({ toolkitEnv, env: { GATEWAY_ALLOW_IMAGE_URLS: 'true' } });
  ({ openai, anthropic } = await clientsOf(strict, 'fidelity-shop'));
  ({ openai: lenientOpenai, anthropic: lenientAnthropic } = await clientsOf(lenient, 'fidelity-url-shop'));
}, 60_000);
afterAll(async () => {
  await strict.close();
  await lenient.close();
  await gpt.close();
  await claude.close();
});

/** The last request a fake received on `path` whose body mentions `marker` (each test's prompt is its own). */
function sentTo(fake: FakeHttpServer, path: string, marker: string): RecordedRequest {
  const found = fake.requests.filter((request) => request.path === path && request.bodyText.includes(marker)).at(-1);
  if (found === undefined) throw new Error(`${fake.url}${path} received no request mentioning ${marker}`);
  return found;
}

const responsesTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'weather by city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};
const messagesTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'weather by city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('Responses API parameters reach the upstream', () => {
  it('passes top_p, tool_choice required and parallel_tool_calls to an OpenAI upstream, which is made to call the tool', async () => {
    const response = await openai.responses.create({
      model: 'openai-compatible/gpt-4o-mini',
      input: 'fidelity-1 what is the weather?',
      tools: [responsesTool],
      tool_choice: 'required',
      parallel_tool_calls: false,
      top_p: 0.25,
    });
    const sent = sentTo(gpt, '/v1/chat/completions', 'fidelity-1').body as Body;
    expect(sent).toMatchObject({ top_p: 0.25, tool_choice: 'required', parallel_tool_calls: false });
    expect(sent.tools).toHaveLength(1);
    expect(response.output).toEqual([expect.objectContaining({ type: 'function_call', name: 'get_weather', arguments: JSON.stringify(weather) })]);
  });

  it('sends a named function choice as OpenAI and as Anthropic name it, and none as none', async () => {
    await openai.responses.create({
      model: 'openai-compatible/gpt-4o-mini',
      input: 'fidelity-2 weather?',
      tools: [responsesTool],
      tool_choice: { type: 'function', name: 'get_weather' },
    });
    expect((sentTo(gpt, '/v1/chat/completions', 'fidelity-2').body as Body).tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
    const onClaude = await openai.responses.create({
      model: 'anthropic/claude-sonnet-4-5',
      input: 'fidelity-3 weather?',
      tools: [responsesTool],
      tool_choice: { type: 'function', name: 'get_weather' },
    });
    expect((sentTo(claude, '/v1/messages', 'fidelity-3').body as Body).tool_choice).toMatchObject({ type: 'tool', name: 'get_weather' });
    expect(onClaude.output[0]).toMatchObject({ type: 'function_call', name: 'get_weather' });
    const none = await openai.responses.create({
      model: 'openai-compatible/gpt-4o-mini',
      input: 'fidelity-4 weather?',
      tools: [responsesTool],
      tool_choice: 'none',
    });
    const sent = sentTo(gpt, '/v1/chat/completions', 'fidelity-4').body as Body;
    expect(sent.tool_choice).toBe('none');
    expect(none.output_text).toBe('plain answer');
  });

  it('passes reasoning to models that take it (reasoning_effort, Anthropic thinking) and leaves it out, without error, for one that does not', async () => {
    await openai.responses.create({ model: 'openai-compatible/o4-mini', input: 'fidelity-5 think hard', reasoning: { effort: 'high' } });
    expect((sentTo(gpt, '/v1/chat/completions', 'fidelity-5').body as Body)['reasoning_effort']).toBe('high');
    await openai.responses.create({
      model: 'anthropic/claude-sonnet-4-5',
      input: 'fidelity-6 think hard',
      reasoning: { effort: 'low' },
      max_output_tokens: 2000,
    });
    expect((sentTo(claude, '/v1/messages', 'fidelity-6').body as Body)['thinking']).toMatchObject({ type: expect.stringMatching(/enabled|adaptive/) });
    // On OpenAI's own API the request is passed through: reasoning goes as the client sent it, the provider decides.
    const native = await openai.responses.create({ model: 'openai/gpt-4o-mini', input: 'fidelity-7 think hard', reasoning: { effort: 'high' } });
    expect(native.status).toBe('completed');
    expect(sentTo(gpt, '/v1/responses', 'fidelity-7').body).toMatchObject({ model: 'gpt-4o-mini', reasoning: { effort: 'high' } });
  });

  it('refuses an unknown reasoning effort with a 400 that names it', async () => {
    const refused = await openai.responses
      .create({ model: 'openai-compatible/gpt-4o-mini', input: 'fidelity-8', reasoning: { effort: 'extreme' as never } })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({ type: 'invalid_request_error', param: 'reasoning.effort' });
  });
});

describe('Messages API parameters reach the upstream', () => {
  it('passes stop_sequences, top_p, top_k and tool_choice any without parallel tool use to an Anthropic upstream, which calls the tool', async () => {
    const message = await anthropic.messages.create({
      model: 'anthropic/claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'fidelity-9 weather in Paris?' }],
      tools: [messagesTool],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      stop_sequences: ['STOP', 'END'],
      top_p: 0.5,
      top_k: 40,
    } as Anthropic.MessageCreateParamsNonStreaming);
    const sent = sentTo(claude, '/v1/messages', 'fidelity-9').body as Body;
    expect(sent).toMatchObject({ stop_sequences: ['STOP', 'END'], top_p: 0.5, top_k: 40, tool_choice: { type: 'any', disable_parallel_tool_use: true } });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([expect.objectContaining({ type: 'tool_use', name: 'get_weather', input: weather })]);
  });

  it('maps them onto an OpenAI upstream: stop, top_p, a named tool as a function choice, parallel_tool_calls false', async () => {
    const message = await anthropic.messages.create({
      model: 'openai/gpt-4o-mini',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'fidelity-10 weather in Paris?' }],
      tools: [messagesTool],
      tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
      stop_sequences: ['STOP'],
      top_p: 0.3,
    } as Anthropic.MessageCreateParamsNonStreaming);
    const sent = sentTo(gpt, '/v1/chat/completions', 'fidelity-10').body as Body;
    expect(sent).toMatchObject({
      stop: ['STOP'],
      top_p: 0.3,
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
    });
    expect(message.content[0]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: weather });
  });

  it('sends tool_choice none with the tools and gets text back', async () => {
    const message = await anthropic.messages.create({
      model: 'anthropic/claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'fidelity-11 weather?' }],
      tools: [messagesTool],
      tool_choice: { type: 'none' },
    });
    const sent = sentTo(claude, '/v1/messages', 'fidelity-11').body as Body;
    expect(sent.tool_choice).toEqual({ type: 'none' });
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'Hi from Claude' })]);
  });

  it('refuses tool_choice of type tool without a name when it must map it (an Anthropic upstream judges it itself)', async () => {
    const refused = await anthropic.messages
      .create({
        model: 'openai/gpt-4o-mini',
        max_tokens: 8,
        messages: [{ role: 'user', content: 'fidelity-12' }],
        tools: [messagesTool],
        tool_choice: { type: 'tool' } as never,
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining('tool_choice') },
    });
  });
});

describe('anthropic-version and anthropic-beta', () => {
  // Not the AI SDK's own version (2023-06-01), so the assertion sees the client's.
  const headers = { 'anthropic-version': '2026-10-21', 'anthropic-beta': 'interleaved-thinking-2025-05-14' };

  it('are forwarded to an Anthropic upstream', async () => {
    await anthropic.messages.create(
      { model: 'anthropic/claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'fidelity-13 hello' }] },
      { headers },
    );
    const sent = sentTo(claude, '/v1/messages', 'fidelity-13');
    expect(sent.headers['anthropic-version']).toBe('2026-10-21');
    expect(String(sent.headers['anthropic-beta']).split(',')).toContain('interleaved-thinking-2025-05-14');
    expect(sent.headers['x-api-key']).toBe('sk-ant-upstream');
  });

  it('leave a non-Anthropic upstream unaffected', async () => {
    const message = await anthropic.messages.create(
      { model: 'openai/gpt-4o-mini', max_tokens: 16, messages: [{ role: 'user', content: 'fidelity-14 hello' }] },
      { headers },
    );
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'plain answer' });
    const sent = sentTo(gpt, '/v1/chat/completions', 'fidelity-14');
    expect(sent.headers['anthropic-version']).toBeUndefined();
    expect(sent.headers['anthropic-beta']).toBeUndefined();
    expect(sent.headers.authorization).toBe('Bearer sk-upstream');
  });
});

describe('POST /v1/messages/count_tokens', () => {
  it("asks an Anthropic upstream's own counter, with the client's headers, and says so", async () => {
    const { data, response } = await anthropic.messages
      .countTokens(
        { model: 'anthropic/claude-sonnet-4-5', system: 'be brief', messages: [{ role: 'user', content: 'fidelity-15 count me' }], tools: [messagesTool] },
        { headers: { 'anthropic-beta': 'token-counting-2024-11-01' } },
      )
      .withResponse();
    expect(data.input_tokens).toBe(4242);
    expect(response.headers.get('x-switchyard-token-count-source')).toBe('provider');
    const sent = sentTo(claude, '/v1/messages/count_tokens', 'fidelity-15');
    expect(sent.headers['x-api-key']).toBe('sk-ant-upstream');
    expect(String(sent.headers['anthropic-beta'])).toContain('token-counting-2024-11-01');
    expect(sent.body).toMatchObject({ model: 'claude-sonnet-4-5', system: 'be brief', tools: [expect.objectContaining({ name: 'get_weather' })] });
    expect(sent.body).not.toHaveProperty('max_tokens');
  });

  it('estimates for a provider without a counter, and when the Anthropic counter fails', async () => {
    const onOpenAi = await anthropic.messages
      .countTokens({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'fidelity-16 count me' }] })
      .withResponse();
    expect(onOpenAi.response.headers.get('x-switchyard-token-count-source')).toBe('estimate');
    expect(onOpenAi.data.input_tokens).toBeGreaterThan(0);
    expect(gpt.requests.some((request) => request.bodyText.includes('fidelity-16'))).toBe(false);
    const failed = await anthropic.messages
      .countTokens({ model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'fidelity-17 count fails' }] })
      .withResponse();
    expect(sentTo(claude, '/v1/messages/count_tokens', 'fidelity-17')).toBeDefined();
    expect(failed.response.headers.get('x-switchyard-token-count-source')).toBe('estimate');
    expect(failed.data.input_tokens).toBeGreaterThan(0);
    expect(failed.data.input_tokens).not.toBe(4242);
  });
});

describe('images: base64 taken, URLs only when GATEWAY_ALLOW_IMAGE_URLS allows them', () => {
  const url = 'https://images.example.com/cat.png';

  it('refuses image URLs by default on both APIs with an invalid_request_error that says what to do', async () => {
    const responses = await openai.responses
      .create({
        model: 'openai-compatible/gpt-4o-mini',
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_image', image_url: url, detail: 'auto' },
              { type: 'input_text', text: 'fidelity-18' },
            ],
          },
        ],
      })
      .catch((error: unknown) => error);
    expect(responses).toBeInstanceOf(OpenAI.BadRequestError);
    expect((responses as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
      type: 'invalid_request_error',
      param: 'input[0].content[0].image_url',
      message: expect.stringContaining('GATEWAY_ALLOW_IMAGE_URLS'),
    });
    const messages = await anthropic.messages
      .create({
        model: 'anthropic/claude-sonnet-4-5',
        max_tokens: 8,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'url', url } },
              { type: 'text', text: 'fidelity-19' },
            ],
          },
        ],
      })
      .catch((error: unknown) => error);
    expect(messages).toBeInstanceOf(Anthropic.BadRequestError);
    expect((messages as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining('GATEWAY_ALLOW_IMAGE_URLS') },
    });
    expect(gpt.requests.some((request) => request.bodyText.includes('fidelity-18'))).toBe(false);
    expect(claude.requests.some((request) => request.bodyText.includes('fidelity-19'))).toBe(false);
  });

  it('passes a base64 input_image of the Responses API to the upstream', async () => {
    await openai.responses.create({
      model: 'openai-compatible/gpt-4o-mini',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'fidelity-20 what is this?' },
            { type: 'input_image', image_url: `data:image/png;base64,${png}`, detail: 'auto' },
          ],
        },
      ],
    });
    const sent = sentTo(gpt, '/v1/chat/completions', 'fidelity-20').body as Body;
    expect(JSON.stringify(sent.messages.at(-1)?.content)).toContain(png);
  });

  it('passes image URLs on when allowed, on both APIs', async () => {
    await lenientOpenai.responses.create({
      model: 'openai/gpt-4o-mini',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'fidelity-21 what is this?' },
            { type: 'input_image', image_url: url, detail: 'auto' },
          ],
        },
      ],
    });
    const toOpenAi = sentTo(gpt, '/v1/responses', 'fidelity-21').body as Body & { input: { content: unknown }[] };
    expect(toOpenAi.input.at(-1)?.content).toEqual(expect.arrayContaining([{ type: 'input_image', image_url: url, detail: 'auto' }]));
    await lenientAnthropic.messages.create({
      model: 'anthropic/claude-sonnet-4-5',
      max_tokens: 8,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'url', url } },
            { type: 'text', text: 'fidelity-22 what is this?' },
          ],
        },
      ],
    });
    const toClaude = sentTo(claude, '/v1/messages', 'fidelity-22').body as Body;
    expect(toClaude.messages.at(-1)?.content).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'image', source: { type: 'url', url } })]));
  });
});
