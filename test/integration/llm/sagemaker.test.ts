import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sagemakerProvider } from '../../../src/adapters/llm/sagemaker-provider.js';
import { AIProviderError } from '../../../src/generation/errors/ai-provider-error.js';
import { ConfigurationError, InvalidRequestError, RateLimitError } from '../../../src/generation/errors/provider-errors.js';
import { awsError } from '../../fixtures/providers/bedrock-wire.js';
import { startFakeHttpServer, type FakeHttpServer } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletionResponse, chatCompletionStreamText, payloadPartStream, tgiResponse, tgiStreamText } from '../../fixtures/providers/sagemaker-wire.js';

let fake: FakeHttpServer;
const base = { messages: [{ role: 'user' as const, content: 'hi' }], temperature: 0.5, maxTokens: 64, maxSteps: 5 };

beforeAll(async () => {
  fake = await startFakeHttpServer(() => tgiResponse('hello'));
});
afterAll(() => fake.close());

function client(modelType = 'huggingface') {
  return sagemakerProvider.create(
    { AWS_ACCESS_KEY_ID: 'AKIDFAKE', AWS_SECRET_ACCESS_KEY: 'secret', SAGEMAKER_ENDPOINT: fake.url, SAGEMAKER_DEFAULT_ENDPOINT: 'my-endpoint', SAGEMAKER_MODEL_TYPE: modelType, SAGEMAKER_MAX_RETRIES: '0' },
    'sagemaker-model',
  );
}

describe('sagemaker provider against a fake SageMaker Runtime', () => {
  it('names the missing endpoint', () => {
    expect(() => sagemakerProvider.create({ AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' }, 'm')).toThrow(ConfigurationError);
    expect(() => sagemakerProvider.create({ AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' }, 'm')).toThrow(/SAGEMAKER_DEFAULT_ENDPOINT/);
  });

  it('invokes a TGI endpoint with a SigV4-signed request', async () => {
    fake.setHandler(() => tgiResponse('hello', { generatedTokens: 3 }));
    const result = await client().generate(base);
    expect(result.text).toBe('hello');
    expect(result.usage.outputTokens).toBe(3);
    const request = fake.requests.at(-1)!;
    expect(request.path).toBe('/endpoints/my-endpoint/invocations');
    expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDFAKE\/\d{8}\/us-east-1\/sagemaker\/aws4_request/);
    expect(request.body).toMatchObject({ inputs: 'hi', parameters: { max_new_tokens: 64, temperature: 0.5 } });
  });

  it('streams TGI tokens from PayloadPart events split mid-line', async () => {
    fake.setHandler(() => payloadPartStream(tgiStreamText(['Hel', 'lo', ' world'], 3), 17));
    const stream = client().stream(base);
    let text = '';
    for await (const delta of stream.textStream) text += delta;
    expect(text).toBe('Hello world');
    expect((await stream.result).usage.outputTokens).toBe(3);
    expect(fake.requests.at(-1)!.path).toBe('/endpoints/my-endpoint/invocations-response-stream');
  });

  it('streams an OpenAI-style chat endpoint with usage', async () => {
    fake.setHandler(() => payloadPartStream(chatCompletionStreamText(['A', 'B']), 29));
    const stream = client('llama').stream(base);
    let text = '';
    for await (const delta of stream.textStream) text += delta;
    expect(text).toBe('AB');
    expect((await stream.result).usage).toMatchObject({ inputTokens: 13, outputTokens: 2 });
  });

  it('runs a tool round trip on a chat endpoint', async () => {
    let call = 0;
    fake.setHandler(() =>
      ++call === 1
        ? chatCompletionResponse({ content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }] }, 'tool_calls')
        : chatCompletionResponse({ content: 'done' }),
    );
    const result = await client('jumpstart').generate({
      ...base,
      tools: [{ name: 'lookup', description: 'look up', inputSchema: { type: 'object', properties: { q: { type: 'string' } } }, source: 'custom', execute: async () => ({ found: 42 }) }],
    });
    expect(result.text).toBe('done');
    const second = fake.requests.at(-1)!.body as { messages: Array<Record<string, unknown>> };
    expect(second.messages.find((message) => message['role'] === 'tool')).toMatchObject({ tool_call_id: 'call_1', content: '{"found":42}' });
  });

  it.each([
    [400, 'ValidationError', InvalidRequestError, false],
    [424, 'ModelError', AIProviderError, true],
    [429, 'ModelNotReadyException', AIProviderError, true],
    [400, 'ThrottlingException', RateLimitError, true],
    [503, 'ServiceUnavailable', AIProviderError, true],
  ] as const)('maps %i %s', async (status, type, errorClass, retryable) => {
    fake.setHandler(() => awsError(status, type, 'boom', { messageKey: 'Message' }));
    const error = await client().generate(base).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(errorClass);
    expect((error as AIProviderError).isRetryable).toBe(retryable);
  });
});
