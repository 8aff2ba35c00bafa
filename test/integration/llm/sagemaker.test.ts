import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sagemakerProvider } from '../../../src/adapters/llm/sagemaker-provider.js';
import { AIProviderError } from '../../../src/generation/errors/ai-provider-error.js';
import { AuthenticationError, ConfigurationError, InvalidRequestError, RateLimitError, TimeoutError } from '../../../src/generation/errors/provider-errors.js';
import { awsError } from '../../fixtures/providers/bedrock-wire.js';
import { startFakeHttpServer, type FakeHttpServer } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletionResponse, chatCompletionStreamText, payloadPartStream, tgiResponse, tgiStreamText } from '../../fixtures/providers/sagemaker-wire.js';
import { closedPortUrl } from './openai-family-contract.js';

let fake: FakeHttpServer;
const base = { messages: [{ role: 'user' as const, content: 'hi' }], temperature: 0.5, maxTokens: 64, maxSteps: 5 };

beforeAll(async () => {
  fake = await startFakeHttpServer(() => tgiResponse('hello'));
});
afterAll(() => fake.close());

function client(modelType = 'huggingface') {
  return sagemakerProvider.create(
    {
      AWS_ACCESS_KEY_ID: 'AKIDFAKE',
      AWS_SECRET_ACCESS_KEY: 'secret',
      SAGEMAKER_ENDPOINT: fake.url,
      SAGEMAKER_DEFAULT_ENDPOINT: 'my-endpoint',
      SAGEMAKER_MODEL_TYPE: modelType,
      SAGEMAKER_MAX_RETRIES: '0',
    },
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
        ? chatCompletionResponse(
            { content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }] },
            'tool_calls',
          )
        : chatCompletionResponse({ content: 'done' }),
    );
    const result = await client('jumpstart').generate({
      ...base,
      tools: [
        {
          name: 'lookup',
          description: 'look up',
          inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
          source: 'custom',
          execute: async () => ({ found: 42 }),
        },
      ],
    });
    expect(result.text).toBe('done');
    const second = fake.requests.at(-1)!.body as { messages: Array<Record<string, unknown>> };
    expect(second.messages.find((message) => message['role'] === 'tool')).toMatchObject({ tool_call_id: 'call_1', content: '{"found":42}' });
  });

  it('asks a TGI endpoint for schema-guided JSON (parameters.grammar) and returns the object', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] };
    fake.setHandler(() => tgiResponse('{"answer": 4}'));
    const result = await client().generate({ ...base, schema });
    expect(result.object).toEqual({ answer: 4 });
    expect(fake.requests.at(-1)!.body).toMatchObject({ parameters: { grammar: { type: 'json', value: { properties: { answer: { type: 'number' } } } } } });

    fake.setHandler(() => tgiResponse('{"answer": "four"}'));
    expect(
      await client()
        .generate({ ...base, schema })
        .catch((caught: unknown) => caught),
    ).toBeInstanceOf(AIProviderError);
  });

  it('asks a chat endpoint for response_format json_schema and returns the object', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    fake.setHandler(() => chatCompletionResponse({ content: '{"city":"Paris"}' }));
    const result = await client('llama').generate({ ...base, schema });
    expect(result.object).toEqual({ city: 'Paris' });
    expect(fake.requests.at(-1)!.body).toMatchObject({ response_format: { type: 'json_schema', json_schema: { schema: { required: ['city'] } } } });
  });

  // Bodies as SageMaker Runtime sends them: the exception in x-amzn-errortype, `Message`, and for
  // ModelError the container's own status in OriginalStatusCode.
  it.each([
    [400, 'ValidationError', {}, InvalidRequestError, false],
    [403, 'UnrecognizedClientException', {}, AuthenticationError, false],
    [403, 'InvalidSignatureException', {}, AuthenticationError, false],
    [403, 'AccessDeniedException', {}, AuthenticationError, false],
    [424, 'ModelError', { OriginalStatusCode: 500, OriginalMessage: 'CUDA out of memory', ErrorCode: 'SERVER_ERROR_FROM_MODEL' }, AIProviderError, true],
    [
      424,
      'ModelError',
      { OriginalStatusCode: 422, OriginalMessage: 'Input validation error: inputs must have less than 4096 tokens', ErrorCode: 'CLIENT_ERROR_FROM_MODEL' },
      InvalidRequestError,
      false,
    ],
    [424, 'ModelError', { OriginalStatusCode: 429, OriginalMessage: 'Model is overloaded', ErrorCode: 'CLIENT_ERROR_FROM_MODEL' }, RateLimitError, true],
    [429, 'ModelNotReadyException', {}, AIProviderError, true],
    [400, 'ThrottlingException', {}, RateLimitError, true],
    [500, 'InternalFailure', {}, AIProviderError, true],
    [503, 'ServiceUnavailable', {}, AIProviderError, true],
  ] as const)('maps %i %s %j', async (status, type, extra, errorClass, retryable) => {
    fake.setHandler(() => awsError(status, type, `${type} from the fake`, { messageKey: 'Message', extra }));
    const error = await client()
      .generate(base)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(errorClass);
    expect((error as AIProviderError).isRetryable).toBe(retryable);
    expect((error as Error).message).toContain(type);
  });

  it('maps a ModelStreamError frame after the first tokens: the text so far, then a retryable error', async () => {
    fake.setHandler(() =>
      payloadPartStream(`${tgiStreamText(['Hel', 'lo']).split('\n\n')[0]}\n\n`, 64, {
        failWith: { type: 'ModelStreamError', message: 'the container crashed' },
      }),
    );
    const stream = client().stream(base);
    let text = '';
    const error = await (async () => {
      for await (const delta of stream.textStream) text += delta;
      return stream.result;
    })().catch((caught: unknown) => caught);
    expect(text).toBe('Hel');
    expect(error).toBeInstanceOf(AIProviderError);
    expect((error as AIProviderError).isRetryable).toBe(true);
  });

  it('times out at SAGEMAKER_TIMEOUT (a retryable TimeoutError) and reports a refused connection as retryable', async () => {
    fake.setHandler(() => new Promise(() => undefined));
    const slow = sagemakerProvider.create(
      {
        AWS_ACCESS_KEY_ID: 'AKIDFAKE',
        AWS_SECRET_ACCESS_KEY: 'secret',
        SAGEMAKER_ENDPOINT: fake.url,
        SAGEMAKER_DEFAULT_ENDPOINT: 'my-endpoint',
        SAGEMAKER_MAX_RETRIES: '0',
        SAGEMAKER_TIMEOUT: '1000',
      },
      'sagemaker-model',
    );
    const timedOut = await slow.generate(base).catch((caught: unknown) => caught);
    expect(timedOut).toBeInstanceOf(TimeoutError);
    expect(timedOut).toMatchObject({ timeout: 1000, isRetryable: true });

    const offline = sagemakerProvider.create(
      {
        AWS_ACCESS_KEY_ID: 'AKIDFAKE',
        AWS_SECRET_ACCESS_KEY: 'secret',
        SAGEMAKER_ENDPOINT: await closedPortUrl(),
        SAGEMAKER_DEFAULT_ENDPOINT: 'my-endpoint',
        SAGEMAKER_MAX_RETRIES: '0',
      },
      'sagemaker-model',
    );
    const refused = await offline.generate(base).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(AIProviderError);
    expect((refused as AIProviderError).isRetryable).toBe(true);
  });
});
