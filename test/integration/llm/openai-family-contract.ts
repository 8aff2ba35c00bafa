import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderDefinition, ProviderEnv } from '../../../src/generation/provider-definition.js';
import { AIProviderError } from '../../../src/generation/errors/ai-provider-error.js';
import {
  AuthenticationError,
  ConfigurationError,
  InvalidRequestError,
  QuotaExceededError,
  RateLimitError,
  TimeoutError,
} from '../../../src/generation/errors/provider-errors.js';
import type { LanguageModelClient, ModelCallRequest } from '../../../src/generation/language-model-client.js';
import type { ToolDefinition } from '../../../src/generation/tool-definition.js';
import { type FakeHttpServer, type RecordedRequest, startFakeHttpServer } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream, chatError, type OpenAiDialect, type WireErrorCase } from '../../fixtures/providers/openai-wire.js';

/** How one OpenAI-wire provider kind is pointed at the fake and what its requests must look like. */
export interface OpenAiFamilyContract {
  readonly definition: ProviderDefinition;
  readonly dialect: OpenAiDialect;
  /** A model (or deployment) id the kind offers tools for. */
  readonly model: string;
  /** The environment that makes the kind talk to `baseUrl` (the fake). */
  env(baseUrl: string): ProviderEnv;
  /** The path every chat request must hit, e.g. `/v1/chat/completions`. */
  readonly chatPath: string;
  /** Asserts the credentials travelled the provider's way (Bearer token, `api-key` header…). */
  assertAuth(request: RecordedRequest): void;
  /** The env variable(s) that `create` must name when the kind is not configured. */
  readonly missingEnvMessage: RegExp;
}

export function baseRequest(overrides: Partial<ModelCallRequest> = {}): ModelCallRequest {
  return { messages: [{ role: 'user', content: 'Say hello' }], temperature: 0.2, maxTokens: 256, maxSteps: 5, ...overrides };
}

/** A tool whose calls the test can read back. */
export function weatherTool(calls: unknown[], options: { readonly requiresConfirmation?: boolean } = {}): ToolDefinition {
  return {
    name: 'get_weather',
    description: 'Current weather for a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
    source: 'custom',
    ...(options.requiresConfirmation === undefined ? {} : { requiresConfirmation: options.requiresConfirmation }),
    execute(input) {
      calls.push(input);
      return Promise.resolve({ success: true, city: (input as { city: string }).city, temperatureC: 21 });
    },
  };
}

export const personSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
  required: ['name', 'age'],
  additionalProperties: false,
} as const;

/** The error classes each wire case must become, and whether a fallback chain may move on. */
export const expectedErrors: Readonly<
  Record<WireErrorCase, { readonly type: new (...args: never[]) => AIProviderError; readonly retryable: boolean; readonly status: number | undefined }>
> = {
  'bad-request': { type: InvalidRequestError, retryable: false, status: undefined },
  unauthorized: { type: AuthenticationError, retryable: false, status: 401 },
  forbidden: { type: AuthenticationError, retryable: false, status: 403 },
  'not-found': { type: InvalidRequestError, retryable: false, status: undefined },
  'rate-limited': { type: RateLimitError, retryable: true, status: 429 },
  'insufficient-quota': { type: QuotaExceededError, retryable: false, status: undefined },
  'server-error': { type: AIProviderError, retryable: true, status: 500 },
  overloaded: { type: AIProviderError, retryable: true, status: 503 },
};

async function capture(promise: Promise<unknown>): Promise<AIProviderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AIProviderError);
    return error as AIProviderError;
  }
  throw new Error('expected the call to fail');
}

/** A URL on which nothing listens: a fake's port right after it closed. */
export async function closedPortUrl(): Promise<string> {
  const server = await startFakeHttpServer(() => ({ status: 200 }));
  await server.close();
  return server.url;
}

/**
 * The contract every OpenAI-wire kind must keep against a fake speaking its dialect: generate,
 * stream, a tool round trip, structured output, and each failure mapped to its error class.
 */
export function describeOpenAiFamilyContract(contract: OpenAiFamilyContract): void {
  const { definition, dialect, model } = contract;

  describe(`${definition.name} provider against a fake speaking its wire`, () => {
    let fake: FakeHttpServer;
    let client: LanguageModelClient;

    beforeAll(async () => {
      fake = await startFakeHttpServer(() => chatCompletion({ dialect, model, content: 'unused' }));
      client = definition.create(contract.env(fake.url), model);
    });
    afterAll(async () => {
      await fake.close();
    });

    const lastRequest = (): RecordedRequest => {
      const request = fake.requests.at(-1);
      if (request === undefined) throw new Error('the fake received no request');
      return request;
    };

    it('refuses to create a client without its required env, naming the variable', () => {
      expect(() => definition.create({}, model)).toThrow(ConfigurationError);
      expect(() => definition.create({}, model)).toThrow(contract.missingEnvMessage);
    });

    it('generates: sends messages, system, temperature and max tokens; maps text, usage, finish reason', async () => {
      fake.setHandler(() => chatCompletion({ dialect, model, content: 'Hello there!', usage: { promptTokens: 11, completionTokens: 4 } }));
      const result = await client.generate(baseRequest({ system: 'Be brief.' }));

      expect(result.text).toBe('Hello there!');
      expect(result.usage).toEqual({ inputTokens: 11, outputTokens: 4, totalTokens: 15 });
      expect(result.finishReason).toBe('stop');
      expect(result.modelId).toBe(model);
      expect(result.toolCalls).toEqual([]);

      const request = lastRequest();
      expect(request.method).toBe('POST');
      expect(request.path).toBe(contract.chatPath);
      contract.assertAuth(request);
      const body = request.body as Record<string, unknown>;
      // Mistral sends user content as a list of parts; the others as a plain string.
      const userContent = dialect === 'mistral' ? [{ type: 'text', text: 'Say hello' }] : 'Say hello';
      expect(body.messages).toEqual([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: userContent },
      ]);
      expect(body.temperature).toBe(0.2);
      expect(body.max_tokens ?? body.max_completion_tokens).toBe(256);
      expect(body.stream ?? false).toBe(false);
    });

    it('sends an image part as an image_url content part with its data URL', async () => {
      fake.setHandler(() => chatCompletion({ dialect, model, content: 'A red pixel.' }));
      const dataUrl = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
      await client.generate(
        baseRequest({
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'What is this?' },
                { type: 'image', dataUrl },
              ],
            },
          ],
        }),
      );
      const messages = (lastRequest().body as { messages: { content: unknown }[] }).messages;
      const content = messages.at(-1)?.content as { type: string; image_url?: string | { url: string } }[];
      expect(content[0]).toEqual({ type: 'text', text: 'What is this?' });
      expect(content[1]?.type).toBe('image_url');
      // Mistral's image_url is the URL itself; OpenAI's wraps it in `{ url }`.
      const imageUrl = content[1]?.image_url;
      expect(typeof imageUrl === 'string' ? imageUrl : imageUrl?.url).toBe(dataUrl);
    });

    it('streams: text deltas in order, then the result with the usage from the last chunk', async () => {
      fake.setHandler(() => chatCompletionStream({ dialect, model, deltas: ['Hel', 'lo, ', 'world'], usage: { promptTokens: 9, completionTokens: 3 } }));
      const stream = client.stream(baseRequest());
      const deltas: string[] = [];
      for await (const delta of stream.textStream) deltas.push(delta);
      const result = await stream.result;

      expect(deltas).toEqual(['Hel', 'lo, ', 'world']);
      expect(result.text).toBe('Hello, world');
      expect(result.usage).toEqual({ inputTokens: 9, outputTokens: 3, totalTokens: 12 });
      expect(result.finishReason).toBe('stop');
      const body = lastRequest().body as Record<string, unknown>;
      expect(body.stream).toBe(true);
      if (dialect !== 'mistral') expect(body.stream_options).toEqual({ include_usage: true });
    });

    it('reassembles a stream whose events arrive cut anywhere, a multi-byte character included', async () => {
      const whole = Buffer.from(
        chatCompletionStream({ dialect, model, deltas: ['Grüß ', 'dich ', '✓'], usage: { promptTokens: 5, completionTokens: 3 } }).body as string,
      );
      fake.setHandler(() => ({
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        body: (async function* () {
          // 7-byte pieces cut lines, "data:" prefixes and the UTF-8 bytes of ü, ß and ✓.
          for (let at = 0; at < whole.length; at += 7) yield whole.subarray(at, at + 7);
        })(),
      }));
      const stream = client.stream(baseRequest());
      const deltas: string[] = [];
      for await (const delta of stream.textStream) deltas.push(delta);
      expect(deltas.join('')).toBe('Grüß dich ✓');
      expect((await stream.result).usage).toEqual({ inputTokens: 5, outputTokens: 3, totalTokens: 8 });
    });

    it('a 2xx answer that is no chat completion → retryable provider error, not a crash or an empty answer', async () => {
      fake.setHandler(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ unexpected: true }) }));
      const error = await capture(client.generate(baseRequest()));
      expect(error.isRetryable).toBe(true);
      expect(error.provider).toBe(definition.name);
    });

    it('settles the stream result even when nobody reads the deltas', async () => {
      fake.setHandler(() => chatCompletionStream({ dialect, model, deltas: ['only ', 'result'] }));
      const result = await client.stream(baseRequest()).result;
      expect(result.text).toBe('only result');
    });

    it("declares the caller's tools without running them: their calls come back, and the next turn carries call and result", async () => {
      const declared = { name: 'get_weather', description: 'Current weather for a city', inputSchema: weatherTool([]).inputSchema };
      fake.setHandler(() => chatCompletion({ dialect, model, toolCalls: [{ id: 'call_decl1', name: 'get_weather', arguments: { city: 'Oslo' } }] }));
      const asked = await client.generate(baseRequest({ clientTools: [declared] }));
      expect(asked.toolCalls).toEqual([{ toolCallId: 'call_decl1', toolName: 'get_weather', args: { city: 'Oslo' } }]);
      expect(asked.toolResults).toEqual([]);
      expect(asked.finishReason).toBe('tool-calls');
      const offered = (lastRequest().body as { tools: { type: string; function: { name: string; parameters: unknown } }[] }).tools;
      expect(offered).toEqual([
        expect.objectContaining({
          type: 'function',
          function: expect.objectContaining({ name: 'get_weather', parameters: expect.objectContaining({ required: ['city'] }) }),
        }),
      ]);

      fake.setHandler(() => chatCompletionStream({ dialect, model, deltas: ['Oslo: ', '4°C'] }));
      const answered = client.stream(
        baseRequest({
          clientTools: [declared],
          messages: [
            { role: 'user', content: 'Weather in Oslo?' },
            { role: 'assistant', content: '', toolCalls: asked.toolCalls },
            { role: 'tool', toolCallId: 'call_decl1', toolName: 'get_weather', content: '{"temperatureC":4}' },
          ],
        }),
      );
      expect((await answered.result).text).toBe('Oslo: 4°C');
      const turns = (
        lastRequest().body as {
          messages: { role: string; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string; content?: unknown }[];
        }
      ).messages;
      const call = turns.find((turn) => turn.role === 'assistant')?.tool_calls?.[0];
      expect(call).toMatchObject({ id: 'call_decl1', function: { name: 'get_weather' } });
      expect(JSON.parse(call?.function.arguments ?? '')).toEqual({ city: 'Oslo' });
      expect(turns.find((turn) => turn.role === 'tool')).toMatchObject({ tool_call_id: 'call_decl1' });
    });

    it('streams the calls of declared tools, assembled from their argument fragments', async () => {
      const declared = { name: 'get_weather', description: 'Current weather for a city', inputSchema: weatherTool([]).inputSchema };
      fake.setHandler(() => chatCompletionStream({ dialect, model, toolCalls: [{ id: 'call_decl2', name: 'get_weather', arguments: { city: 'Lima' } }] }));
      const result = await client.stream(baseRequest({ clientTools: [declared] })).result;
      expect(result.toolCalls).toEqual([{ toolCallId: 'call_decl2', toolName: 'get_weather', args: { city: 'Lima' } }]);
      expect(result.finishReason).toBe('tool-calls');
    });

    it('round-trips a tool call: the model asks, our execute runs, the next request carries the result', async () => {
      const calls: unknown[] = [];
      fake.setHandler((request) => {
        const messages = (request.body as { messages: { role: string }[] }).messages;
        return messages.some((message) => message.role === 'tool')
          ? chatCompletion({ dialect, model, content: 'It is 21°C in Paris.', usage: { promptTokens: 40, completionTokens: 8 } })
          : chatCompletion({
              dialect,
              model,
              toolCalls: [{ id: 'call_abc123', name: 'get_weather', arguments: { city: 'Paris' } }],
              usage: { promptTokens: 30, completionTokens: 5 },
            });
      });
      const before = fake.requests.length;
      const result = await client.generate(baseRequest({ tools: [weatherTool(calls)] }));

      expect(calls).toEqual([{ city: 'Paris' }]);
      expect(result.text).toBe('It is 21°C in Paris.');
      expect(result.toolCalls).toEqual([{ toolCallId: 'call_abc123', toolName: 'get_weather', args: { city: 'Paris' } }]);
      expect(result.toolResults).toHaveLength(1);
      expect(result.toolResults[0]).toMatchObject({
        toolCallId: 'call_abc123',
        toolName: 'get_weather',
        success: true,
        output: { success: true, city: 'Paris', temperatureC: 21 },
      });
      expect(result.toolResults[0]?.durationMs).toBeGreaterThanOrEqual(0);
      expect(result.usage).toEqual({ inputTokens: 70, outputTokens: 13, totalTokens: 83 });

      const sent = fake.requests.slice(before);
      expect(sent).toHaveLength(2);
      const first = sent[0]?.body as { tools: { type: string; function: { name: string; parameters: unknown } }[] };
      expect(first.tools).toHaveLength(1);
      expect(first.tools[0]?.function.name).toBe('get_weather');
      expect(first.tools[0]?.function.parameters).toMatchObject({ type: 'object', required: ['city'] });
      const second = sent[1]?.body as { messages: { role: string; tool_call_id?: string; content?: unknown; tool_calls?: unknown[] }[] };
      const assistant = second.messages.find((message) => message.role === 'assistant');
      expect(assistant?.tool_calls).toHaveLength(1);
      const toolMessage = second.messages.find((message) => message.role === 'tool');
      expect(toolMessage?.tool_call_id).toBe('call_abc123');
      expect(JSON.parse(String(toolMessage?.content))).toEqual({ success: true, city: 'Paris', temperatureC: 21 });
    });

    it('streams a tool round trip: tool-call deltas assembled, execute runs, deltas of the answer follow', async () => {
      const calls: unknown[] = [];
      fake.setHandler((request) => {
        const messages = (request.body as { messages: { role: string }[] }).messages;
        return messages.some((message) => message.role === 'tool')
          ? chatCompletionStream({ dialect, model, deltas: ['Sunny ', 'in Oslo.'] })
          : chatCompletionStream({ dialect, model, toolCalls: [{ id: 'call_s1', name: 'get_weather', arguments: { city: 'Oslo' } }] });
      });
      const stream = client.stream(baseRequest({ tools: [weatherTool(calls)] }));
      const deltas: string[] = [];
      for await (const delta of stream.textStream) deltas.push(delta);
      const result = await stream.result;
      expect(calls).toEqual([{ city: 'Oslo' }]);
      expect(deltas.join('')).toBe('Sunny in Oslo.');
      expect(result.toolResults.map((record) => record.toolCallId)).toEqual(['call_s1']);
    });

    it('does not run a requiresConfirmation tool without the grant; the model gets USER_CONFIRMATION_REQUIRED', async () => {
      const calls: unknown[] = [];
      fake.setHandler((request) => {
        const messages = (request.body as { messages: { role: string }[] }).messages;
        return messages.some((message) => message.role === 'tool')
          ? chatCompletion({ dialect, model, content: 'I need your confirmation.' })
          : chatCompletion({ dialect, model, toolCalls: [{ id: 'call_c1', name: 'get_weather', arguments: { city: 'Rome' } }] });
      });
      const result = await client.generate(baseRequest({ tools: [weatherTool(calls, { requiresConfirmation: true })] }));
      expect(calls).toEqual([]);
      expect(result.toolResults[0]).toMatchObject({ success: false, output: { error: 'USER_CONFIRMATION_REQUIRED' } });
      const toolMessage = (lastRequest().body as { messages: { role: string; content?: unknown }[] }).messages.find((message) => message.role === 'tool');
      expect(JSON.parse(String(toolMessage?.content))).toEqual({ error: 'USER_CONFIRMATION_REQUIRED' });

      const granted = await client.generate(
        baseRequest({ tools: [weatherTool(calls, { requiresConfirmation: true })], confirmedTools: new Set(['get_weather']) }),
      );
      expect(calls).toEqual([{ city: 'Rome' }]);
      expect(granted.toolResults[0]?.success).toBe(true);
    });

    it('reports a tool that throws to the model as a failed result instead of failing the call', async () => {
      fake.setHandler((request) => {
        const messages = (request.body as { messages: { role: string }[] }).messages;
        return messages.some((message) => message.role === 'tool')
          ? chatCompletion({ dialect, model, content: 'The weather service is down.' })
          : chatCompletion({ dialect, model, toolCalls: [{ id: 'call_t1', name: 'get_weather', arguments: { city: 'Bern' } }] });
      });
      const failing: ToolDefinition = { ...weatherTool([]), execute: () => Promise.reject(new Error('weather service unreachable')) };
      const result = await client.generate(baseRequest({ tools: [failing] }));
      expect(result.text).toBe('The weather service is down.');
      expect(result.toolResults[0]).toMatchObject({ success: false, output: { success: false, error: 'weather service unreachable' } });
      const toolMessage = (lastRequest().body as { messages: { role: string; content?: unknown }[] }).messages.find((message) => message.role === 'tool');
      expect(String(toolMessage?.content)).toContain('weather service unreachable');
    });

    it('stops after maxSteps round trips even if the model keeps calling tools', async () => {
      const calls: unknown[] = [];
      fake.setHandler(() => chatCompletion({ dialect, model, toolCalls: [{ id: 'call_loop', name: 'get_weather', arguments: { city: 'Loop' } }] }));
      const before = fake.requests.length;
      const result = await client.generate(baseRequest({ tools: [weatherTool(calls)], maxSteps: 2 }));
      expect(fake.requests.length - before).toBe(2);
      expect(calls).toHaveLength(2);
      expect(result.finishReason).toBe('tool-calls');
    });

    it('returns structured output parsed and validated against the schema', async () => {
      fake.setHandler(() => chatCompletion({ dialect, model, content: '{"name":"Ada","age":36}' }));
      const result = await client.generate(baseRequest({ schema: personSchema }));
      expect(result.object).toEqual({ name: 'Ada', age: 36 });
      const body = lastRequest().body as { response_format?: { type: string } };
      expect(['json_schema', 'json_object']).toContain(body.response_format?.type);
    });

    it('rejects structured output that does not match the schema as a retryable provider error', async () => {
      fake.setHandler(() => chatCompletion({ dialect, model, content: '{"name":"Ada","age":-1}' }));
      const error = await capture(client.generate(baseRequest({ schema: personSchema })));
      expect(error.isRetryable).toBe(true);
      expect(error.message).toMatch(/schema/);
    });

    describe('maps each real error answer to its error class', () => {
      const cases = Object.keys(expectedErrors) as WireErrorCase[];
      it.each(cases)('%s', async (errorCase) => {
        const answer = chatError(errorCase, dialect, model);
        fake.setHandler(() => answer);
        const expected = expectedErrors[errorCase];
        const error = await capture(client.generate(baseRequest()));
        expect(error).toBeInstanceOf(expected.type);
        expect(error.isRetryable).toBe(expected.retryable);
        expect(error.provider).toBe(definition.name);
        expect(error.statusCode).toBe(answer.status);
        if (expected.status !== undefined) expect(error.statusCode).toBe(expected.status);
        // The provider's own words survive into the message.
        expect(error.message).toContain(answer.message.slice(0, 40));
        if (error instanceof RateLimitError) {
          const headers = answer.headers ?? {};
          const seconds = headers['retry-after-ms'] === undefined ? Number(headers['retry-after']) : Number(headers['retry-after-ms']) / 1000;
          expect(error.retryAfter).toBe(seconds);
        }
      });

      it('the same mapping applies to a stream that fails before its first chunk', async () => {
        fake.setHandler(() => chatError('unauthorized', dialect, model));
        const stream = client.stream(baseRequest());
        const read = async () => {
          for await (const delta of stream.textStream) void delta;
        };
        const error = await capture(read());
        expect(error).toBeInstanceOf(AuthenticationError);
        await expect(stream.result).rejects.toBe(error);
      });

      it('connection refused → retryable network error', async () => {
        const offline = definition.create(contract.env(await closedPortUrl()), model);
        const error = await capture(offline.generate(baseRequest()));
        expect(error.isRetryable).toBe(true);
        expect(error.message).toMatch(/network|connect/i);
      });

      it('a deadline (AbortSignal.timeout) → retryable TimeoutError', async () => {
        fake.setHandler(() => new Promise(() => undefined));
        const error = await capture(client.generate(baseRequest({ abortSignal: AbortSignal.timeout(150) })));
        expect(error).toBeInstanceOf(TimeoutError);
        expect(error.isRetryable).toBe(true);
      });

      it('a deadline during a stream that stalls after its first delta → the deltas so far, then TimeoutError', async () => {
        let release: () => void = () => undefined;
        const stalled = new Promise<void>((resolve) => {
          release = resolve;
        });
        const first = chatCompletionStream({ dialect, model, deltas: ['partial'] }).body as string;
        const opening = first.split('\n\n').filter((event) => event.includes('partial') || event.includes('"role"'));
        fake.setHandler(() => ({
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
          body: (async function* () {
            for (const event of opening) yield `${event}\n\n`;
            await stalled;
          })(),
        }));
        const stream = client.stream(baseRequest({ abortSignal: AbortSignal.timeout(300) }));
        const deltas: string[] = [];
        const read = async () => {
          for await (const delta of stream.textStream) deltas.push(delta);
        };
        const error = await capture(read());
        release();
        expect(deltas).toEqual(['partial']);
        expect(error).toBeInstanceOf(TimeoutError);
        await expect(stream.result).rejects.toBe(error);
      });

      it('the caller aborting → not retryable', async () => {
        const controller = new AbortController();
        fake.setHandler(() => {
          controller.abort();
          return new Promise(() => undefined);
        });
        const error = await capture(client.generate(baseRequest({ abortSignal: controller.signal })));
        expect(error).not.toBeInstanceOf(TimeoutError);
        expect(error.isRetryable).toBe(false);
      });
    });
  });
}
