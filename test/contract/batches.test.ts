import { DefaultNeuroLink } from '../../src/adapters/toolkit/default-neurolink.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startGenerationWorker } from '../../cli/create-batch-service.js';
import type { WorkerHandle } from '../../workers/worker-handle.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatError } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, signUp, withKey, withToken, type TestApp } from '../helpers/test-app.js';

/**
 * The batch routes over HTTP (inject) with the real toolkit and a generation worker on the
 * in-process queue, against a local fake speaking OpenAI's Chat Completions wire format.
 */

interface ChatBody {
  readonly model: string;
  readonly temperature?: number;
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
}

function lastUserText(request: RecordedRequest): string {
  const body = request.body as ChatBody;
  const content = [...body.messages].reverse().find((message) => message.role === 'user')?.content;
  return typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : '';
}

/** Answers by prompt: "reject…" is a 400, "throttle…" a 429 the first time, anything else an echo. */
function providerLike(): (request: RecordedRequest) => ReturnType<typeof chatCompletion> {
  const throttled = new Set<string>();
  return (request) => {
    const prompt = lastUserText(request);
    const model = (request.body as ChatBody).model;
    if (prompt.startsWith('reject')) return chatError('bad-request', 'openai', model);
    if (prompt.startsWith('throttle') && !throttled.has(prompt)) {
      throttled.add(prompt);
      return chatError('rate-limited', 'openai', model);
    }
    return chatCompletion({ model, content: `echo: ${prompt}`, usage: { promptTokens: prompt.length, completionTokens: 3 } });
  };
}

let provider: FakeHttpServer;
let workDir: string;

beforeAll(async () => {
  provider = await startFakeHttpServer(providerLike());
  workDir = mkdtempSync(join(tmpdir(), 'batches-contract-'));
});

afterAll(async () => {
  await provider.close();
  rmSync(workDir, { recursive: true, force: true });
});

describe('batch routes', () => {
  let t: TestApp;
  let worker: WorkerHandle | undefined;
  let apiKey: string;

  async function open(env: Record<string, string> = {}): Promise<void> {
    provider.setHandler(providerLike());
    const toolkit = new DefaultNeuroLink({
      cwd: workDir,
      env: { OPENAI_API_KEY: 'sk-batch-contract', OPENAI_BASE_URL: `${provider.url}/v1` },
      builtInTools: [],
      warn: () => undefined,
    });
    t = await createTestApp({ env: { BATCH_MAX_PROMPTS: '4', BATCH_BACKOFF_MS: '10', BATCH_ATTEMPTS: '3', ...env }, batchModels: toolkit });
    apiKey = (await createMerchant(t.app, 'shop-batch')).apiKey;
  }

  async function startWorker(): Promise<WorkerHandle> {
    worker = await startGenerationWorker(t.config, t.batchWiring, t.batches);
    return worker;
  }

  async function submit(payload: unknown, headers = withKey(apiKey)) {
    return t.app.inject({ method: 'POST', url: '/api/batches', headers, payload: payload as Record<string, unknown> });
  }

  afterEach(async () => {
    await worker?.close();
    worker = undefined;
    await t.close();
  });

  it('accepts a batch with 202, runs one job per prompt, and reports progress and paged results', async () => {
    await open();
    const before = provider.requests.length;
    const response = await submit({ prompts: ['alpha', 'beta', 'gamma'], options: { temperature: 0.3, maxTokens: 64 } });
    expect(response.statusCode).toBe(202);
    const batch = response.json() as { batchId: string };
    expect(response.headers['location']).toBe(`/api/batches/${batch.batchId}`);
    expect(batch).toMatchObject({
      status: 'running',
      merchantId: 'shop-batch',
      provider: 'openai',
      total: 3,
      pending: 3,
      succeeded: 0,
      failed: 0,
      cancelled: 0,
    });

    await (await startWorker()).caughtUp();
    const progress = await t.app.inject({ method: 'GET', url: `/api/batches/${batch.batchId}`, headers: withKey(apiKey) });
    expect(progress.statusCode).toBe(200);
    expect(progress.json()).toMatchObject({ status: 'completed', pending: 0, succeeded: 3 });

    const calls = provider.requests.slice(before);
    expect(calls.map(lastUserText).sort()).toEqual(['alpha', 'beta', 'gamma']);
    expect(calls.every((call) => (call.body as ChatBody).temperature === 0.3 && (call.body as { tools?: unknown }).tools === undefined)).toBe(true);

    const first = await t.app.inject({ method: 'GET', url: `/api/batches/${batch.batchId}/results?limit=2`, headers: withKey(apiKey) });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ batchId: batch.batchId, status: 'completed', total: 3, offset: 0, limit: 2, nextOffset: 2 });
    expect((first.json() as { items: unknown[] }).items).toEqual([
      expect.objectContaining({
        index: 0,
        jobId: `${batch.batchId}:0`,
        status: 'succeeded',
        prompt: 'alpha',
        content: 'echo: alpha',
        provider: 'openai',
        model: 'gpt-4o-mini',
        usage: { inputTokens: 5, outputTokens: 3, totalTokens: 8 },
        attempts: 1,
      }),
      expect.objectContaining({ index: 1, status: 'succeeded', content: 'echo: beta' }),
    ]);
    const last = await t.app.inject({ method: 'GET', url: `/api/batches/${batch.batchId}/results?offset=2&limit=2`, headers: withKey(apiKey) });
    expect(last.json()).toMatchObject({ offset: 2, items: [expect.objectContaining({ index: 2, content: 'echo: gamma' })] });
    expect(last.json()).not.toHaveProperty('nextOffset');
  });

  it('retries a 429 and dead-letters a 400 at once, with the error class', async () => {
    await open();
    const response = await submit({ prompts: ['throttle me', 'reject me'] });
    const { batchId } = response.json() as { batchId: string };
    const before = provider.requests.length;
    await (await startWorker()).caughtUp();
    const byPrompt = new Map<string, number>();
    for (const call of provider.requests.slice(before)) byPrompt.set(lastUserText(call), (byPrompt.get(lastUserText(call)) ?? 0) + 1);
    expect(Object.fromEntries(byPrompt)).toEqual({ 'throttle me': 2, 'reject me': 1 });
    const results = await t.app.inject({ method: 'GET', url: `/api/batches/${batchId}/results`, headers: withKey(apiKey) });
    expect(results.json()).toMatchObject({
      status: 'completed',
      items: [
        { index: 0, status: 'succeeded', content: 'echo: throttle me', attempts: 2 },
        { index: 1, status: 'failed', attempts: 1, error: { errorClass: 'InvalidRequestError', retryable: false, statusCode: 400 } },
      ],
    });
    expect((await t.app.inject({ method: 'GET', url: `/api/batches/${batchId}`, headers: withKey(apiKey) })).json()).toMatchObject({
      succeeded: 1,
      failed: 1,
      pending: 0,
    });
  });

  it('cancels a batch before it runs: nothing reaches the provider, and cancelling again changes nothing', async () => {
    await open();
    const { batchId } = (await submit({ prompts: ['one', 'two'] })).json() as { batchId: string };
    const cancelled = await t.app.inject({ method: 'POST', url: `/api/batches/${batchId}/cancel`, headers: withKey(apiKey) });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', cancelled: 2, pending: 0, cancelledAt: expect.any(String) });
    const again = await t.app.inject({ method: 'POST', url: `/api/batches/${batchId}/cancel`, headers: withKey(apiKey) });
    expect(again.json()).toEqual(cancelled.json());
    const before = provider.requests.length;
    await (await startWorker()).caughtUp();
    expect(provider.requests.length).toBe(before);
    const results = await t.app.inject({ method: 'GET', url: `/api/batches/${batchId}/results`, headers: withKey(apiKey) });
    expect((results.json() as { items: { status: string }[] }).items.map((item) => item.status)).toEqual(['cancelled', 'cancelled']);
  });

  it("keeps a batch to its merchant: another merchant's credential gets 403, an unknown id 404", async () => {
    await open();
    const { batchId } = (await submit({ prompts: ['mine'] })).json() as { batchId: string };
    const intruderKey = (await createMerchant(t.app, 'shop-other')).apiKey;
    const { token } = await signUp(t.app, 'other@example.com', 'shop-other');
    for (const [method, url] of [
      ['GET', `/api/batches/${batchId}`],
      ['GET', `/api/batches/${batchId}/results`],
      ['POST', `/api/batches/${batchId}/cancel`],
    ] as const) {
      for (const headers of [withKey(intruderKey), withToken(token)]) {
        const response = await t.app.inject({ method, url, headers });
        // Another merchant's batch is an unknown id: the answer names no owner.
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json()).toEqual({ code: 'TE_04', message: 'Batch not found', data: null });
        expect(response.body).not.toContain('shop-batch');
      }
      const unknown = await t.app.inject({ method, url: url.replace(batchId, 'no-such-batch'), headers: withKey(apiKey) });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ code: 'TE_04', message: 'Batch not found', data: null });
    }
    // The intruder's cancel did nothing.
    expect((await t.app.inject({ method: 'GET', url: `/api/batches/${batchId}`, headers: withKey(apiKey) })).json()).toMatchObject({
      status: 'running',
      pending: 1,
    });
    // A session of the owner's merchant sees it.
    const owner = await signUp(t.app, 'owner@example.com', 'shop-batch');
    expect((await t.app.inject({ method: 'GET', url: `/api/batches/${batchId}`, headers: withToken(owner.token) })).statusCode).toBe(200);
  });

  it.each([
    ['more prompts than BATCH_MAX_PROMPTS', { prompts: ['1', '2', '3', '4', '5'] }, 400, 'a batch may carry at most 4 prompts; got 5'],
    ['a provider this server has no key for', { prompts: ['x'], options: { provider: 'anthropic' } }, 400, 'set ANTHROPIC_API_KEY'],
    ['an unknown provider', { prompts: ['x'], options: { provider: 'skynet' } }, 400, 'provider names no known provider: "skynet"'],
    ['a malformed timeout', { prompts: ['x'], options: { timeout: 'soon' } }, 400, 'timeout must be a positive number of milliseconds'],
    ['a blank prompt', { prompts: ['ok', '   '] }, 400, 'prompts[1] must be a non-empty string'],
  ])('refuses %s with 400 naming the problem, before anything is enqueued', async (_label, payload, status, message) => {
    await open();
    const response = await submit(payload);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ code: 'TE_03', message: expect.stringContaining(message), data: null });
    expect(await t.state.batches.unfinished()).toEqual([]);
  });

  it.each([
    ['no prompts', { prompts: [] }],
    ['a temperature above 1', { prompts: ['x'], options: { temperature: 1.5 } }],
    ['an option the API does not know', { prompts: ['x'], options: { tools: [] } }],
    ['prompts that are objects, not text', { prompts: [{ text: 'x' }] }],
  ])('refuses a body with %s as a shape error (422)', async (_label, payload) => {
    await open();
    const response = await submit(payload);
    expect(response.statusCode).toBe(422);
    expect(response.body).toMatch(/^Failed to deserialize the JSON body into the target type: /);
  });

  it('refuses results paging outside its bounds with 400', async () => {
    await open();
    const { batchId } = (await submit({ prompts: ['x'] })).json() as { batchId: string };
    for (const query of ['limit=0', 'limit=1001', 'offset=-1', 'limit=ten']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/batches/${batchId}/results?${query}`, headers: withKey(apiKey) });
      expect(response.statusCode, query).toBe(400);
      expect((response.json() as { code: string }).code).toBe('TE_03');
    }
  });

  it('documents the routes in OpenAPI under the Batches tag', async () => {
    await open();
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { tags?: string[]; responses?: Record<string, unknown> }>>;
    };
    expect(spec.paths['/api/batches']?.['post']?.tags).toEqual(['Batches']);
    expect(Object.keys(spec.paths['/api/batches']?.['post']?.responses ?? {})).toContain('202');
    expect(spec.paths['/api/batches/{batchId}']?.['get']?.tags).toEqual(['Batches']);
    expect(spec.paths['/api/batches/{batchId}/results']?.['get']?.tags).toEqual(['Batches']);
    expect(spec.paths['/api/batches/{batchId}/cancel']?.['post']?.tags).toEqual(['Batches']);
  });
});
