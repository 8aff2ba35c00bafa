import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bedrockProvider } from '../../../src/adapters/llm/bedrock-provider.js';
import { AIProviderError } from '../../../src/generation/errors/ai-provider-error.js';
import {
  AuthenticationError,
  ConfigurationError,
  InvalidRequestError,
  QuotaExceededError,
  RateLimitError,
} from '../../../src/generation/errors/provider-errors.js';
import {
  awsError,
  converseResponse,
  converseTextStream,
  converseToolUseStream,
  eventStreamResponse,
  exceptionFrame,
} from '../../fixtures/providers/bedrock-wire.js';
import { startFakeHttpServer, type FakeHttpServer } from '../../fixtures/providers/fake-http-server.js';

let fake: FakeHttpServer;
const base = { messages: [{ role: 'user' as const, content: 'hi' }], temperature: 0.2, maxTokens: 100, maxSteps: 5 };
const model = 'anthropic.claude-3-haiku-20240307-v1:0';

beforeAll(async () => {
  fake = await startFakeHttpServer(() => converseResponse([{ text: 'hello' }]));
});
afterAll(() => fake.close());

function client() {
  return bedrockProvider.create(
    { AWS_ACCESS_KEY_ID: 'AKIAFAKEFAKEFAKE', AWS_SECRET_ACCESS_KEY: 'fake-secret', AWS_REGION: 'eu-west-1', BEDROCK_ENDPOINT: fake.url },
    model,
  );
}

const weatherTool = {
  name: 'get_weather',
  description: 'weather',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  source: 'custom' as const,
  execute: async (input: unknown) => ({ city: (input as { city: string }).city, temp: 21 }),
};

describe('bedrock provider against a fake Converse API (AWS event-stream framing)', () => {
  it('names the missing credentials', () => {
    expect(() => bedrockProvider.create({}, 'x')).toThrow(ConfigurationError);
    expect(() => bedrockProvider.create({ AWS_ACCESS_KEY_ID: 'a' }, 'x')).toThrow(/AWS_SECRET_ACCESS_KEY/);
  });

  it('signs a Converse call with SigV4 and reports usage', async () => {
    fake.setHandler(() => converseResponse([{ text: 'hello' }], { usage: { inputTokens: 12, outputTokens: 7, totalTokens: 19 } }));
    const result = await client().generate(base);
    expect(result.text).toBe('hello');
    expect(result.usage).toMatchObject({ inputTokens: 12, outputTokens: 7 });
    const request = fake.requests.at(-1)!;
    expect(decodeURIComponent(request.path)).toBe(`/model/${model}/converse`);
    expect(request.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAFAKEFAKEFAKE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=.*, Signature=[0-9a-f]{64}$/,
    );
    expect((request.body as { inferenceConfig: { temperature: number; maxTokens: number } }).inferenceConfig).toMatchObject({
      temperature: 0.2,
      maxTokens: 100,
    });
  });

  it('streams binary event-stream frames split at odd boundaries and resolves usage', async () => {
    fake.setHandler(() => converseTextStream(['Hel', 'lo'], { inputTokens: 5, outputTokens: 2, totalTokens: 7 }));
    const stream = client().stream(base);
    let text = '';
    for await (const delta of stream.textStream) text += delta;
    expect(text).toBe('Hello');
    expect((await stream.result).usage).toMatchObject({ inputTokens: 5, outputTokens: 2 });
    expect(decodeURIComponent(fake.requests.at(-1)!.path)).toBe(`/model/${model}/converse-stream`);
  });

  it('runs a tool round trip (toolUse → toolResult), plain and streamed', async () => {
    let call = 0;
    fake.setHandler(() =>
      ++call === 1
        ? converseResponse([{ toolUse: { toolUseId: 'tu_1', name: 'get_weather', input: { city: 'Paris' } } }])
        : converseResponse([{ text: 'Sunny, 21' }]),
    );
    const result = await client().generate({ ...base, tools: [weatherTool] });
    expect(result.text).toBe('Sunny, 21');
    const second = JSON.stringify(fake.requests.at(-1)!.body);
    expect(second).toContain('"toolUseId":"tu_1"');
    expect(second).toContain('21');

    call = 0;
    fake.setHandler(() => (++call === 1 ? converseToolUseStream('tu_2', 'get_weather', { city: 'Oslo' }) : converseTextStream(['Cold'])));
    const stream = client().stream({ ...base, tools: [weatherTool] });
    let text = '';
    for await (const delta of stream.textStream) text += delta;
    expect(text).toBe('Cold');
    expect((await stream.result).toolCalls).toEqual([expect.objectContaining({ toolName: 'get_weather', args: { city: 'Oslo' } })]);
  });

  it('returns a structured object', async () => {
    fake.setHandler(() => converseResponse([{ text: '{"answer":4}' }]));
    const result = await client().generate({ ...base, schema: { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] } });
    expect(result.object).toEqual({ answer: 4 });
  });

  it.each([
    [429, 'ThrottlingException', RateLimitError, true],
    [400, 'ServiceQuotaExceededException', QuotaExceededError, undefined],
    [403, 'AccessDeniedException', AuthenticationError, false],
    [403, 'UnrecognizedClientException', AuthenticationError, false],
    [400, 'ValidationException', InvalidRequestError, false],
    [404, 'ResourceNotFoundException', InvalidRequestError, false],
    [503, 'ServiceUnavailableException', AIProviderError, true],
    [500, 'InternalServerException', AIProviderError, true],
    [424, 'ModelErrorException', AIProviderError, true],
  ] as const)('maps %i %s', async (status, type, errorClass, retryable) => {
    fake.setHandler(() => awsError(status, type, `${type} from the fake`));
    const error = await client()
      .generate(base)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(errorClass);
    expect((error as Error).message).toContain(type);
    if (retryable !== undefined) expect((error as AIProviderError).isRetryable).toBe(retryable);
  });

  it('maps an exception frame in the middle of a stream', async () => {
    fake.setHandler(() => eventStreamResponse([exceptionFrame('throttlingException', { message: 'Too many tokens, please wait' })]));
    const stream = client().stream(base);
    const error = await (async () => {
      for await (const delta of stream.textStream) void delta;
      return stream.result;
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).toContain('Too many tokens');
  });
});
