import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/events/event-envelope.js';
import { sseBody, startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream, chatError } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, logIn, signUp, withKey, withToken, type TestApp } from '../helpers/test-app.js';

/**
 * /api/generate, /api/stream, /api/status and /models/* on the real app, its toolkit made as the
 * service makes it, against a local fake speaking OpenAI's Chat Completions wire format.
 */

interface ChatBody {
  readonly model: string;
  readonly stream?: boolean;
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
}

const secretPrompt = 'What is two plus two? (secret-marker-7f3a)';

function lastUserText(request: RecordedRequest): string {
  const body = request.body as ChatBody;
  const content = [...body.messages].reverse().find((message) => message.role === 'user')?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

/** Answers held back until the test ends (a provider that never answers within the call's timeout). */
const held: (() => void)[] = [];

/** OpenAI's mid-stream failure: a chunk, then an `error` object in place of the next chunk. */
function streamBrokenMidway(model: string) {
  const chunk = {
    id: 'chatcmpl-mid-1',
    object: 'chat.completion.chunk',
    created: 1_732_000_000,
    model,
    choices: [{ index: 0, delta: { role: 'assistant', content: 'Half an ans' }, logprobs: null, finish_reason: null }],
  };
  const failure = {
    error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null },
  };
  return { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, body: sseBody([chunk, failure]) };
}

function openAiLike(request: RecordedRequest) {
  const body = request.body as ChatBody;
  const text = lastUserText(request);
  if (text.includes('rate me')) return chatError('rate-limited');
  if (text.includes('crash')) return chatError('server-error');
  if (text.includes('revoked key')) return chatError('unauthorized');
  if (text.includes('hang')) return new Promise<ReturnType<typeof chatError>>((resolve) => held.push(() => resolve(chatError('server-error'))));
  if (text.includes('break midway') && body.stream === true) return streamBrokenMidway(body.model);
  if (body.stream === true)
    return chatCompletionStream({ model: body.model, deltas: ['Four', ', ', 'of course.'], usage: { promptTokens: 11, completionTokens: 4 } });
  return chatCompletion({ model: body.model, content: 'Four.', usage: { promptTokens: 15, completionTokens: 2 } });
}

let provider: FakeHttpServer;

beforeAll(async () => {
  provider = await startFakeHttpServer(openAiLike);
});
afterAll(async () => {
  for (const release of held.splice(0)) release();
  await provider.close();
});

describe('generation over HTTP', () => {
  let t: TestApp;
  let key: string;
  const merchant = 'gen-shop';

  beforeEach(async () => {
    t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-http-fake', OPENAI_BASE_URL: `${provider.url}/v1` } });
    key = (await createMerchant(t.app, merchant)).apiKey;
  });
  afterEach(async () => t.close());

  const generate = (payload: Record<string, unknown>, headers: Record<string, string> = withKey(key)) =>
    t.app.inject({ method: 'POST', url: '/api/generate', headers, payload });
  const llmEvents = async () => {
    await t.eventsCaughtUp();
    return t.events.filter((event): event is EventEnvelope<'llm.call'> => event.type === 'llm.call');
  };

  describe('POST /api/generate', () => {
    it('answers the toolkit result with the demo server fields and records the call for the merchant, without its text', async () => {
      const response = await generate(
        { input: { text: secretPrompt }, disableTools: true, temperature: 0.2, maxTokens: 50 },
        { ...withKey(key), 'x-request-id': 'req-gen-1' },
      );
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json() as Record<string, unknown>;
      expect(body).toMatchObject({
        success: true,
        content: 'Four.',
        provider: 'openai',
        model: 'gpt-4o-mini',
        fallbackUsed: false,
        attemptedProviders: ['openai'],
        finishReason: 'stop',
      });
      expect(body['usage']).toMatchObject({ inputTokens: 15, outputTokens: 2, totalTokens: 17 });
      expect(typeof body['responseTime']).toBe('number');
      expect(new Date(body['timestamp'] as string).toISOString()).toBe(body['timestamp']);
      const sent = provider.requests.at(-1)?.body as ChatBody & { temperature: number; max_completion_tokens?: number; max_tokens?: number };
      expect(sent.temperature).toBe(0.2);
      expect(sent.max_completion_tokens ?? sent.max_tokens).toBe(50);

      const [event, ...more] = await llmEvents();
      expect(more).toEqual([]);
      expect(event?.merchantId).toBe(merchant);
      expect(event?.payload).toMatchObject({
        provider: 'openai',
        model: 'gpt-4o-mini',
        operation: 'generate',
        surface: 'http',
        inputTokens: 15,
        outputTokens: 2,
        outcome: 'success',
        errorClass: null,
        fallbackHops: 0,
        requestId: 'req-gen-1',
        timeToFirstTokenMs: null,
      });
      expect(event?.payload.costUsd).toBeGreaterThan(0);
      expect(JSON.stringify(event)).not.toContain('secret-marker');
      expect(JSON.stringify(event)).not.toContain('Four.');
    });

    it("takes the demo server's `prompt` and records the session's user", async () => {
      await signUp(t.app, 'writer@example.com', merchant);
      const token = await logIn(t.app, 'writer@example.com');
      const response = await generate({ prompt: 'Say four', disableTools: true }, withToken(token));
      expect(response.statusCode, response.body).toBe(200);
      expect((response.json() as { content: string }).content).toBe('Four.');
      const [event] = await llmEvents();
      expect(event?.payload.userId).toEqual(expect.any(String));
    });

    it('refuses a body without text with 400 naming input.text, before any provider call', async () => {
      const before = provider.requests.length;
      const response = await generate({ temperature: 0.5 });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        success: false,
        code: 'INVALID_REQUEST',
        option: 'input.text',
        error: expect.stringContaining('Prompt is required'),
      });
      expect(provider.requests.length).toBe(before);
    });

    it('refuses out-of-range and malformed options before any provider call', async () => {
      const before = provider.requests.length;
      const outOfRange = await generate({ input: { text: 'x' }, temperature: 3 });
      expect(outOfRange.statusCode).toBe(422);
      expect(outOfRange.body).toContain('temperature');
      const malformedTimeout = await generate({ input: { text: 'x' }, timeout: 'soon' });
      expect(malformedTimeout.statusCode).toBe(400);
      expect(malformedTimeout.json()).toMatchObject({ code: 'INVALID_REQUEST', option: 'timeout' });
      const unknownField = await generate({ input: { text: 'x' }, temprature: 0.3 });
      expect(unknownField.statusCode).toBe(422);
      expect(provider.requests.length).toBe(before);
    });

    it("passes a provider's 429 on with Retry-After and records the RateLimitError", async () => {
      const response = await generate({ input: { text: 'rate me' }, provider: 'openai', disableTools: true });
      expect(response.statusCode).toBe(429);
      expect(response.headers['retry-after']).toBe('20');
      expect(response.json()).toMatchObject({ success: false, code: 'RATE_LIMITED', provider: 'openai', retryAfter: 20 });
      const [event] = await llmEvents();
      expect(event?.payload).toMatchObject({ outcome: 'error', errorClass: 'RateLimitError', inputTokens: 0, outputTokens: 0 });
    });

    it("answers a provider's 5xx with 502", async () => {
      const response = await generate({ input: { text: 'crash now' }, provider: 'openai', disableTools: true });
      expect(response.statusCode).toBe(502);
      expect(response.json()).toMatchObject({ success: false, code: 'PROVIDER_ERROR', provider: 'openai' });
    });

    it("answers a provider's refusal of this service's key with 502 AUTHENTICATION (the operator's key, not the caller's)", async () => {
      const response = await generate({ input: { text: 'revoked key' }, provider: 'openai', disableTools: true });
      expect(response.statusCode).toBe(502);
      expect(response.json()).toMatchObject({ success: false, code: 'AUTHENTICATION', provider: 'openai' });
      expect(response.body).not.toContain('sk-http-fake');
    });

    it('answers 504 TIMEOUT when the provider does not answer within the timeout', async () => {
      const response = await generate({ input: { text: 'hang on' }, provider: 'openai', disableTools: true, timeout: '300ms' });
      expect(response.statusCode).toBe(504);
      expect(response.json()).toMatchObject({ success: false, code: 'TIMEOUT' });
      const [event] = await llmEvents();
      expect(event?.payload).toMatchObject({ outcome: 'error', errorClass: 'TimeoutError' });
    });

    it('answers 503 naming the variable when the provider asked for has no credentials here', async () => {
      const response = await generate({ input: { text: 'x' }, provider: 'anthropic' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ code: 'CONFIGURATION', error: expect.stringContaining('ANTHROPIC_API_KEY') });
    });
  });

  describe('POST /api/stream', () => {
    function parseSse(text: string): { event: string; data: Record<string, unknown> }[] {
      return text
        .split('\n\n')
        .filter((block) => block.trim() !== '')
        .map((block) => {
          const lines = block.split('\n');
          const event = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? 'message';
          const data = JSON.parse(lines.find((line) => line.startsWith('data: '))?.slice(6) ?? 'null') as Record<string, unknown>;
          return { event, data };
        });
    }

    it('streams start, chunks and a complete event with usage, then records the stream with its time to first token', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/stream',
        headers: withKey(key),
        payload: { input: { text: 'stream it' }, disableTools: true },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
      const events = parseSse(response.body);
      expect(events[0]).toMatchObject({ event: 'data', data: { type: 'start', provider: 'openai', model: 'gpt-4o-mini' } });
      expect(
        events
          .filter((e) => e.data['type'] === 'chunk')
          .map((e) => e.data['content'])
          .join(''),
      ).toBe('Four, of course.');
      const complete = events.at(-1);
      expect(complete).toMatchObject({
        event: 'complete',
        data: { type: 'complete', usage: { inputTokens: 11, outputTokens: 4 }, finishReason: 'stop', totalChunks: 3 },
      });
      expect(complete?.data['streamId']).toBe(events[0]?.data['streamId']);
      const [record] = await llmEvents();
      expect(record?.payload).toMatchObject({ operation: 'stream', surface: 'sse', outcome: 'success', inputTokens: 11, outputTokens: 4 });
      expect(record?.payload.timeToFirstTokenMs).toEqual(expect.any(Number));
    });

    it('writes plain text chunks for Accept: text/plain', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/stream',
        headers: { ...withKey(key), accept: 'text/plain' },
        payload: { prompt: 'stream it', disableTools: true },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.body).toBe('Four, of course.');
    });

    it('ends a stream that fails after it started with an error event, and records the failure', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/stream',
        headers: withKey(key),
        payload: { input: { text: 'break midway' }, provider: 'openai', disableTools: true },
      });
      expect(response.statusCode).toBe(200);
      const events = parseSse(response.body);
      expect(events[0]).toMatchObject({ event: 'data', data: { type: 'start' } });
      expect(
        events
          .filter((e) => e.data['type'] === 'chunk')
          .map((e) => e.data['content'])
          .join(''),
      ).toBe('Half an ans');
      const last = events.at(-1);
      expect(last).toMatchObject({ event: 'error', data: { type: 'error', code: 'PROVIDER_ERROR', streamId: events[0]?.data['streamId'] } });
      expect(last?.data['error']).toEqual(expect.stringContaining('server had an error'));
      expect(events.some((e) => e.event === 'complete')).toBe(false);
      const [record] = await llmEvents();
      expect(record?.payload).toMatchObject({ operation: 'stream', surface: 'sse', outcome: 'error' });
    });

    it('answers a refused request with a JSON error, not a stream', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/stream',
        headers: withKey(key),
        payload: { input: { text: 'x' }, maxSteps: 1, timeout: '-1s' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'INVALID_REQUEST', option: 'timeout' });
    });
  });

  describe('GET /api/status', () => {
    it('reports configured providers (probed live, see api-status-probe.test.ts) and the auto choice', async () => {
      const before = provider.requests.length;
      const response = await t.app.inject({ method: 'GET', url: '/api/status', headers: withKey(key) });
      expect(response.statusCode).toBe(200);
      const body = response.json() as { providers: Record<string, { configured: boolean; missing?: string[] }>; bestProvider: string };
      expect(body.bestProvider).toBe('openai');
      expect(body.providers['openai']).toMatchObject({ configured: true, available: true });
      expect(body.providers['anthropic']).toMatchObject({ configured: false, missing: ['ANTHROPIC_API_KEY'] });
      // One 1-token probe of the one configured provider.
      expect(provider.requests.length).toBe(before + 1);
    });
  });

  describe('/models', () => {
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: withKey(key) });

    it('lists the registry, searches by capability and price, cheapest first', async () => {
      const all = (await get('/models')).json() as {
        count: number;
        models: { provider: string; capabilities: string[]; pricing?: { input: number; output: number } }[];
      };
      expect(all.count).toBe(all.models.length);
      expect(all.count).toBeGreaterThan(5);
      const vision = (await get('/models/search?capability=vision&maxPrice=0.01')).json() as {
        count: number;
        query: Record<string, unknown>;
        results: { capabilities: string[]; pricing: { input: number; output: number } }[];
      };
      expect(vision.query).toEqual({ capability: 'vision', maxPrice: 0.01, provider: null });
      expect(vision.count).toBeGreaterThan(0);
      const averages = vision.results.map((model) => (model.pricing.input + model.pricing.output) / 2);
      for (const average of averages) expect(average).toBeLessThanOrEqual(0.01);
      expect([...averages].sort((a, b) => a - b)).toEqual(averages);
      for (const model of vision.results) expect(model.capabilities).toContain('vision');
      expect((await get('/models/search?maxPrice=-1')).statusCode).toBe(400);
    });

    it("answers a provider's models with its default, and 404 naming the known providers otherwise", async () => {
      const openai = await get('/models/provider/openai');
      expect(openai.statusCode).toBe(200);
      const body = openai.json() as { provider: string; models: { provider: string }[]; defaults: { provider: string } };
      expect(body.provider).toBe('openai');
      expect(body.models.every((model) => model.provider === 'openai')).toBe(true);
      expect(body.defaults.provider).toBe('openai');
      const unknown = await get('/models/provider/nobody');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ message: expect.stringContaining('available: ') });
    });

    it('resolves an alias to its model, 404 for a name nobody has', async () => {
      const models = (await get('/models')).json() as { models: { key: string; provider: string; aliases: string[] }[] };
      const aliased = models.models.find((model) => model.aliases.length > 0);
      expect(aliased).toBeDefined();
      const alias = aliased?.aliases[0] ?? '';
      const resolved = await get(`/models/resolve/${encodeURIComponent(alias)}`);
      expect(resolved.statusCode).toBe(200);
      expect(resolved.json()).toMatchObject({ alias, provider: aliased?.provider, modelKey: aliased?.key });
      expect((await get('/models/resolve/no-such-model-anywhere')).statusCode).toBe(404);
    });
  });

  describe('/api/mcp', () => {
    it('lists the built-in tools and refuses an unknown MCP server with 404', async () => {
      const tools = (await t.app.inject({ method: 'GET', url: '/api/mcp/tools', headers: withKey(key) })).json() as {
        tools: { name: string; category: string }[];
      };
      expect(tools.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['calculateMath', 'readFile']));
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/mcp/execute',
        headers: withKey(key),
        payload: { serverName: 'nowhere', toolName: 'echo', params: {} },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ success: false, code: 'MCP_CONFIGURATION' });
      const status = (await t.app.inject({ method: 'GET', url: '/api/mcp/status', headers: withKey(key) })).json() as { summary: Record<string, number> };
      expect(status.summary).toMatchObject({ totalServers: 0, availableServers: 0 });
    });

    it('refuses a server name that could smuggle a command line', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/mcp/execute',
        headers: withKey(key),
        payload: { serverName: 'x; rm -rf /', toolName: 'echo' },
      });
      expect(response.statusCode).toBe(422);
    });
  });
});

describe('OpenAPI', () => {
  it('documents every generation, MCP and model route with its tag, its credentials and its body or query', async () => {
    const t = await createTestApp();
    try {
      type Operation = { tags?: string[]; security?: unknown[]; requestBody?: unknown; parameters?: { name: string }[]; description?: string };
      const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
      const routes: [string, string, string][] = [
        ['post', '/api/generate', 'Generation'],
        ['post', '/api/stream', 'Generation'],
        ['get', '/api/status', 'Generation'],
        ['get', '/api/mcp/tools', 'MCP'],
        ['post', '/api/mcp/execute', 'MCP'],
        ['get', '/api/mcp/status', 'MCP'],
        ['get', '/api/mcp/servers', 'MCP'],
        ['get', '/models', 'Models'],
        ['get', '/models/search', 'Models'],
        ['get', '/models/provider/{provider}', 'Models'],
        ['get', '/models/resolve/{alias}', 'Models'],
      ];
      for (const [method, path, tag] of routes) {
        const operation = spec.paths[path]?.[method];
        expect(operation?.tags, `${method} ${path}`).toEqual([tag]);
        expect(operation?.security, `${method} ${path}`).toEqual([{ BearerAuth: [] }, { ApiKeyAuth: [] }]);
        expect(operation?.requestBody !== undefined, `${method} ${path}`).toBe(method === 'post');
      }
      expect(spec.paths['/models/search']?.['get']?.parameters?.map((parameter) => parameter.name)).toEqual(
        expect.arrayContaining(['capability', 'maxPrice', 'provider']),
      );
      expect(spec.paths['/api/stream']?.['post']?.description).toContain('`complete`');
    } finally {
      await t.close();
    }
  });
});

describe('POST /api/stream when the client goes away', () => {
  let upstream: Server;
  let upstreamUrl: string;
  let upstreamClosed: Promise<void>;

  beforeAll(async () => {
    let markClosed!: () => void;
    upstreamClosed = new Promise<void>((resolve) => {
      markClosed = resolve;
    });
    // A provider that sends one chunk and then holds the stream open until its client hangs up.
    upstream = createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = {
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'gpt-4o-mini',
        choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }],
      };
      response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      response.on('close', () => markClosed());
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    upstream.closeAllConnections();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  it('aborts the provider call', async () => {
    const t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-abort', OPENAI_BASE_URL: `${upstreamUrl}/v1` } });
    try {
      const { apiKey } = await createMerchant(t.app, 'abort-shop');
      const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const client = new AbortController();
      const response = await fetch(`${base}/api/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...withKey(apiKey) },
        body: JSON.stringify({ input: { text: 'hello' }, disableTools: true }),
        signal: client.signal,
      });
      const reader = response.body!.getReader();
      let seen = '';
      while (!seen.includes('"type":"chunk"')) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended early: ${seen}`);
        seen += new TextDecoder().decode(value);
      }
      client.abort();
      await upstreamClosed; // the provider's connection is closed by our side: the test times out otherwise
      await t.eventsCaughtUp();
      const record = t.events.find((event) => event.type === 'llm.call');
      expect(record?.payload).toMatchObject({ operation: 'stream', outcome: 'error' });
    } finally {
      await t.close();
    }
  });
});
