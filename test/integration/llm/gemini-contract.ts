import { expect, it } from 'vitest';
import { AIProviderError } from '../../../src/generation/errors/ai-provider-error.js';
import { AuthenticationError, InvalidRequestError, QuotaExceededError, RateLimitError } from '../../../src/generation/errors/provider-errors.js';
import type { LanguageModelClient } from '../../../src/generation/language-model-client.js';
import type { FakeHttpServer, FakeResponse, RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { functionResponsesOf, geminiResponse, geminiTextStream } from '../../fixtures/providers/google-wire.js';

const base = { messages: [{ role: 'user' as const, content: 'hi' }], temperature: 0.2, maxTokens: 100, maxSteps: 5 };

/** Error bodies of the Gemini API, as Google sends them. */
function googleErrorBody(code: number, status: string, message: string, details: readonly Record<string, unknown>[] = []): FakeResponse {
  return { status: code, headers: { 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify({ error: { code, message, status, details } }) };
}

/**
 * The Gemini wire contract both Google AI Studio and Vertex speak: plain, streaming, a tool round
 * trip, structured output and the error table. `answer` installs a handler on the fake (Vertex
 * also answers its token exchange there); `path` is where generateContent calls land.
 */
export function geminiContract(options: {
  fake: () => FakeHttpServer;
  client: () => LanguageModelClient;
  answer: (handler: (request: RecordedRequest) => FakeResponse) => void;
  modelPath: RegExp;
}): void {
  it('generates text and reports usage', async () => {
    options.answer(() => geminiResponse([{ text: 'hello' }], { usage: { promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 } }));
    const result = await options.client().generate(base);
    expect(result.text).toBe('hello');
    expect(result.usage).toMatchObject({ inputTokens: 12, outputTokens: 7 });
    const request = options
      .fake()
      .requests.filter((r) => options.modelPath.test(r.path))
      .at(-1)!;
    expect(request.path).toMatch(/:generateContent$/);
    expect((request.body as { generationConfig: { temperature: number; maxOutputTokens: number } }).generationConfig).toMatchObject({
      temperature: 0.2,
      maxOutputTokens: 100,
    });
  });

  it('streams text over alt=sse and resolves usage at the end', async () => {
    options.answer(() => geminiTextStream(['Hel', 'lo'], { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 }));
    const stream = options.client().stream(base);
    let text = '';
    for await (const delta of stream.textStream) text += delta;
    expect(text).toBe('Hello');
    expect((await stream.result).usage).toMatchObject({ inputTokens: 5, outputTokens: 2 });
    const request = options
      .fake()
      .requests.filter((r) => options.modelPath.test(r.path))
      .at(-1)!;
    expect(request.path).toMatch(/:streamGenerateContent$/);
    expect(request.query.get('alt')).toBe('sse');
  });

  it('runs a function call round trip and sends the function response back', async () => {
    let call = 0;
    options.answer(() =>
      ++call === 1 ? geminiResponse([{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }]) : geminiResponse([{ text: 'Sunny, 21' }]),
    );
    const result = await options.client().generate({
      ...base,
      tools: [
        {
          name: 'get_weather',
          description: 'weather',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          source: 'custom',
          execute: async (input) => ({ city: (input as { city: string }).city, temp: 21 }),
        },
      ],
    });
    expect(result.text).toBe('Sunny, 21');
    expect(result.toolCalls).toEqual([expect.objectContaining({ toolName: 'get_weather', args: { city: 'Paris' } })]);
    const second = options
      .fake()
      .requests.filter((r) => options.modelPath.test(r.path))
      .at(-1)!;
    expect(functionResponsesOf(second.body)).toEqual([expect.objectContaining({ name: 'get_weather', response: expect.objectContaining({}) })]);
    expect(JSON.stringify(functionResponsesOf(second.body))).toContain('21');
    const first = options
      .fake()
      .requests.filter((r) => options.modelPath.test(r.path))
      .at(-2)!;
    expect(JSON.stringify((first.body as { tools: unknown }).tools)).toContain('get_weather');
  });

  it('asks for JSON with the response schema and returns the object', async () => {
    options.answer(() => geminiResponse([{ text: '{"answer":4}' }]));
    const result = await options.client().generate({ ...base, schema: { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] } });
    expect(result.object).toEqual({ answer: 4 });
    const request = options
      .fake()
      .requests.filter((r) => options.modelPath.test(r.path))
      .at(-1)!;
    expect((request.body as { generationConfig: { responseMimeType: string } }).generationConfig.responseMimeType).toBe('application/json');
  });

  it.each([
    [
      'a per-minute RESOURCE_EXHAUSTED with RetryInfo',
      googleErrorBody(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).', [
        { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId: 'GenerateRequestsPerMinutePerProjectPerModel' }] },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '17s' },
      ]),
      RateLimitError,
      true,
    ],
    [
      'a per-day RESOURCE_EXHAUSTED',
      googleErrorBody(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota', [
        { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' }] },
      ]),
      QuotaExceededError,
      undefined,
    ],
    ['UNAUTHENTICATED', googleErrorBody(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.'), AuthenticationError, false],
    ['PERMISSION_DENIED', googleErrorBody(403, 'PERMISSION_DENIED', 'Permission denied on resource project.'), AuthenticationError, false],
    ['INVALID_ARGUMENT', googleErrorBody(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'), InvalidRequestError, false],
    ['NOT_FOUND', googleErrorBody(404, 'NOT_FOUND', 'models/nope is not found for API version v1beta'), InvalidRequestError, false],
    ['INTERNAL', googleErrorBody(500, 'INTERNAL', 'An internal error has occurred.'), AIProviderError, true],
    ['UNAVAILABLE', googleErrorBody(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'), AIProviderError, true],
  ] as const)('maps %s', async (_name, response, errorClass, retryable) => {
    options.answer(() => response);
    const error = await options
      .client()
      .generate(base)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(errorClass);
    if (retryable !== undefined) expect((error as AIProviderError).isRetryable).toBe(retryable);
    if (errorClass === RateLimitError) expect((error as RateLimitError).retryAfter).toBe(17);
  });
}
