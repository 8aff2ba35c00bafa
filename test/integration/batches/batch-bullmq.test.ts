import { DefaultNeuroLink } from '../../../src/adapters/toolkit/default-neurolink.js';
import { createDecidePayment } from '../../../src/decision/decide-payment.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { DynamicModelRegistry } from '../../../src/generation/models/dynamic-model-registry.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.js';
import { createReadiness } from '../../../api/readiness.js';
import { createAccessServices, createCounterfactual } from '../../../cli/create-access-services.js';
import { resolveTokenConfig } from '../../../cli/resolve-token-config.js';
import { createBatchService, startGenerationWorker, type BatchWiring } from '../../../cli/create-batch-service.js';
import { createRuntime, runtimeDefaults, type Runtime } from '../../../cli/create-runtime.js';
import { loadConfig, type Config } from '../../../src/config/load-config.js';
import type { NeuroLink } from '../../../src/toolkit/neurolink.js';
import type { WorkerHandle } from '../../../workers/worker-handle.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatError } from '../../fixtures/providers/openai-wire.js';
import { deleteRedisNamespace, redisUrl, uniqueNamespace } from '../adapters/local-services.js';

/**
 * Distributed batches: the API and two generation workers, each with its own Redis connections
 * and BullMQ consumers on one namespace of the real Redis, the toolkit calling a local fake that
 * speaks OpenAI's wire format. Scaling is running more workers: they share the provider's queue.
 */

// 32+ characters: with REDIS_URL set the app refuses a shorter ADMIN_SECRET.
const adminSecret = 'batch-integration-admin-0123456789abcdef';
const silent = pino({ level: 'silent' });

function promptOf(request: RecordedRequest): string {
  const messages = (request.body as { messages: { role: string; content: unknown }[] }).messages;
  const content = [...messages].reverse().find((message) => message.role === 'user')?.content;
  return typeof content === 'string' ? content : '';
}

describe('batches on BullMQ and Redis', () => {
  let provider: FakeHttpServer;
  let keyPrefix: string;
  let dataDir: string;
  let config: Config;
  let admin: Redis;
  let apiRuntime: Runtime;
  let app: FastifyInstance;
  const workerRuntimes: Runtime[] = [];
  const workers: WorkerHandle[] = [];
  let auth: Record<string, string>;

  function toolkit(): NeuroLink {
    return new DefaultNeuroLink({
      cwd: dataDir,
      env: { OPENAI_API_KEY: 'sk-batch-integration', OPENAI_BASE_URL: `${provider.url}/v1` },
      builtInTools: [],
      warn: () => undefined,
    });
  }

  function wiringOf(runtime: Runtime): BatchWiring {
    return { state: runtime.state, jobs: runtime.jobs, models: toolkit(), clock: runtimeDefaults.clock, logger: silent };
  }

  /** A `switchyard worker generation` of its own: its own runtime (Redis and BullMQ connections). */
  async function startWorker(): Promise<WorkerHandle> {
    const runtime = await createRuntime(config, silent, { analytics: false });
    workerRuntimes.push(runtime);
    const wiring = wiringOf(runtime);
    const worker = await startGenerationWorker(config, wiring, createBatchService(config, wiring));
    workers.push(worker);
    return worker;
  }

  beforeAll(async () => {
    provider = await startFakeHttpServer((request) => chatCompletion({ model: 'gpt-4o-mini', content: `echo: ${promptOf(request)}` }));
    keyPrefix = `${uniqueNamespace('batches')}:`;
    dataDir = mkdtempSync(join(tmpdir(), 'sytest-batches-'));
    config = loadConfig({
      ADMIN_SECRET: adminSecret,
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'batch-integration-jwt-secret-0123456789abcdef',
      DATA_DIR: dataDir,
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: keyPrefix,
      EMBEDDED_WORKERS: 'false',
      BATCH_BACKOFF_MS: '50',
      BATCH_ATTEMPTS: '3',
      // One item at a time per worker: two items in flight at once prove two workers share the queue.
      BATCH_CONCURRENCY: '1',
    });
    admin = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0 });
    await admin.connect();
    apiRuntime = await createRuntime(config, silent, { analytics: false });
    expect(apiRuntime.mode).toMatchObject({ state: 'redis', jobs: 'bullmq' });
    const wiring = wiringOf(apiRuntime);
    const tokens = await resolveTokenConfig(config, silent);
    app = await buildApp(config, {
      access: createAccessServices({ state: apiRuntime.state, bus: apiRuntime.bus, clock: runtimeDefaults.clock, logger: silent, tokens }),
      runCounterfactual: createCounterfactual({ analytics: undefined, state: apiRuntime.state, routingDefaults: runtimeDefaults.routingDefaults }),
      toolkit: wiring.models as NeuroLink,
      models: DynamicModelRegistry.shipped(),
      ...runtimeDefaults,
      decidePayment: createDecidePayment({
        state: apiRuntime.state,
        bus: apiRuntime.bus,
        random: runtimeDefaults.random,
        clock: runtimeDefaults.clock,
        defaults: runtimeDefaults.routingDefaults,
      }),
      state: apiRuntime.state,
      bus: apiRuntime.bus,
      analytics: undefined,
      jobs: apiRuntime.jobs,
      batches: createBatchService(config, wiring),
      readiness: createReadiness(),
      logger: silent,
      tokens,
    });
    const created = await app.inject({
      method: 'POST',
      url: '/merchant-account/create',
      headers: { 'x-admin-secret': adminSecret },
      payload: { merchant_id: 'shop-bullmq' },
    });
    auth = { 'x-api-key': (created.json() as { api_key: string }).api_key };
  });

  afterAll(async () => {
    for (const worker of workers) await worker.close();
    for (const runtime of workerRuntimes) await runtime.close();
    await app?.close();
    await apiRuntime?.close();
    await provider?.close();
    if (admin !== undefined) {
      await deleteRedisNamespace(admin, keyPrefix);
      admin.disconnect();
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shares one batch between two workers, calling the provider once per prompt', async () => {
    // The first two calls are held until both have arrived: with one slot per worker, only two
    // workers sharing the queue can get there.
    const arrived: (() => void)[] = [];
    let held = 0;
    provider.setHandler(async (request) => {
      if (held < 2) {
        held += 1;
        await new Promise<void>((resolve) => {
          arrived.push(resolve);
          if (arrived.length === 2) for (const release of arrived) release();
        });
      }
      return chatCompletion({ model: 'gpt-4o-mini', content: `echo: ${promptOf(request)}`, usage: { promptTokens: 4, completionTokens: 2 } });
    });
    const [first, second] = [await startWorker(), await startWorker()];
    const before = provider.requests.length;
    const prompts = Array.from({ length: 8 }, (_, index) => `prompt ${index}`);
    const response = await app.inject({ method: 'POST', url: '/api/batches', headers: auth, payload: { prompts } });
    expect(response.statusCode).toBe(202);
    const { batchId } = response.json() as { batchId: string };
    // BullMQ holds one job per prompt, under the encoded `<batchId>:<index>` id.
    expect(await admin.exists(`${keyPrefix}bull:generation-openai:j${batchId}%3A7`)).toBe(1);

    await first!.caughtUp();
    await second!.caughtUp();
    const status = (await app.inject({ method: 'GET', url: `/api/batches/${batchId}`, headers: auth })).json();
    expect(status).toMatchObject({ status: 'completed', total: 8, succeeded: 8, pending: 0 });
    const called = provider.requests.slice(before).map(promptOf).sort();
    expect(called).toEqual([...prompts].sort());
    const results = (await app.inject({ method: 'GET', url: `/api/batches/${batchId}/results?limit=8`, headers: auth })).json() as {
      items: { prompt: string; content: string; attempts: number }[];
    };
    expect(results.items.map((item) => [item.prompt, item.content, item.attempts])).toEqual(prompts.map((prompt) => [prompt, `echo: ${prompt}`, 1]));
  });

  it('retries 5xx answers with backoff on BullMQ and dead-letters a refused credential at once', async () => {
    const failures = new Map<string, number>();
    provider.setHandler((request) => {
      const prompt = promptOf(request);
      const seen = failures.get(prompt) ?? 0;
      failures.set(prompt, seen + 1);
      if (prompt === 'flaky' && seen < 2) return chatError('overloaded');
      if (prompt === 'locked out') return chatError('unauthorized');
      return chatCompletion({ model: 'gpt-4o-mini', content: `echo: ${prompt}` });
    });
    if (workers.length === 0) await startWorker();
    const { batchId } = (await app.inject({ method: 'POST', url: '/api/batches', headers: auth, payload: { prompts: ['flaky', 'locked out'] } })).json() as {
      batchId: string;
    };
    for (const worker of workers) await worker.caughtUp();
    expect(Object.fromEntries(failures)).toEqual({ flaky: 3, 'locked out': 1 });
    const results = (await app.inject({ method: 'GET', url: `/api/batches/${batchId}/results`, headers: auth })).json();
    expect(results).toMatchObject({
      status: 'completed',
      items: [
        { status: 'succeeded', content: 'echo: flaky', attempts: 3 },
        { status: 'failed', attempts: 1, error: { errorClass: 'AuthenticationError', retryable: false, statusCode: 401 } },
      ],
    });
  });

  it('cancels on BullMQ: waiting jobs leave the queue and never reach the provider', async () => {
    for (const worker of workers.splice(0)) await worker.close();
    const { batchId } = (await app.inject({ method: 'POST', url: '/api/batches', headers: auth, payload: { prompts: ['a', 'b', 'c'] } })).json() as {
      batchId: string;
    };
    const cancelled = await app.inject({ method: 'POST', url: `/api/batches/${batchId}/cancel`, headers: auth });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', cancelled: 3 });
    expect(await admin.exists(`${keyPrefix}bull:generation-openai:j${batchId}%3A0`)).toBe(0);
    const before = provider.requests.length;
    await (await startWorker()).caughtUp();
    expect(provider.requests.length).toBe(before);
  });
});
