import type { Admin } from '@platformatic/kafka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topics } from '../../../src/events/event-envelope.js';
import { startFakeHttpServer, type FakeHttpServer, type FakeResponse, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../../fixtures/providers/openai-wire.js';
import { kafkaBrokers, redisUrl } from '../adapters/local-services.js';
import { consumerGroupLag, createKafkaAdmin, createPipelineNamespace, deletePipelineNamespace, type PipelineNamespace } from '../pipeline/pipeline-harness.js';
import { pollUntil } from '../../fixtures/poll-until.js';
import { ensureDistBuilt, spawnSwitchyard, type SwitchyardProcess } from '../pipeline/switchyard-process.js';
import { readTopics, type TopicReader } from '../../fixtures/kafka-client.js';

/**
 * `switchyard worker generation` killed without warning in the middle of a batch, with two items
 * in flight at the provider, and the API process killed too. A new API and a new worker finish the
 * batch: every item ends with one answer, nothing is lost, and no item that had finished reaches
 * the provider again. Only the two items that were in flight are sent again (their first call
 * never got an answer to anyone), which is at-least-once delivery doing its job.
 *
 * The workers publish their llm.call records to Kafka: every item is recorded exactly once.
 *
 * Runs on the shared Redis and Kafka (its own key and topic prefixes); it stops no shared server.
 */

// 32+ characters: distributed mode refuses a shorter ADMIN_SECRET.
const adminSecret = 'batch-fault-admin-secret-0123456789abcdef';
const prompts = Array.from({ length: 24 }, (_, index) => `item-${String(index).padStart(2, '0')}`);
/** Requests answered before two are held (and the worker killed). */
const answeredBeforeKill = 8;

function promptOf(request: RecordedRequest): string {
  const messages = (request.body as { messages: { role: string; content: unknown }[] }).messages;
  const content = [...messages].reverse().find((message) => message.role === 'user')?.content;
  return typeof content === 'string' ? content : '';
}

async function http(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

interface LlmCallEvent {
  readonly id: string;
  readonly type: string;
  readonly payload: { readonly batchId: string | null; readonly jobId: string | null; readonly outcome: string; readonly surface: string };
}

describe('generation worker killed mid-batch, API restarted', () => {
  let provider: FakeHttpServer;
  let namespace: PipelineNamespace;
  let kafkaAdmin: Admin | undefined;
  let reader: TopicReader | undefined;
  /** Every llm.call event on the namespace's topics, as read from Kafka. */
  const records: LlmCallEvent[] = [];
  const processes: SwitchyardProcess[] = [];
  /** Calls per prompt that got an answer, and every call per prompt. */
  const answered = new Map<string, number>();
  const received = new Map<string, number>();
  const heldPrompts: string[] = [];
  let heldReached!: () => void;
  const twoHeld = new Promise<void>((resolve) => (heldReached = resolve));
  const releaseHeld: (() => void)[] = [];

  function env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'debug',
      ADMIN_SECRET: adminSecret,
      JWT_SECRET: 'batch-fault-jwt-secret-0123456789abcdef-0123',
      DATA_DIR: namespace.dataDir,
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: namespace.redisKeyPrefix,
      KAFKA_BROKERS: kafkaBrokers.join(','),
      KAFKA_TOPIC_PREFIX: namespace.kafkaTopicPrefix,
      KAFKA_CLIENT_ID: `t${namespace.id}`,
      EMBEDDED_WORKERS: 'false',
      // 2 s: a job whose worker died is handed over after about this long (1 s is the minimum).
      JOB_LOCK_MS: '2000',
      BATCH_CONCURRENCY: '2',
      BATCH_BACKOFF_MS: '50',
      OPENAI_API_KEY: 'sk-batch-fault',
      OPENAI_BASE_URL: `${provider.url}/v1`,
      ...extra,
    };
  }

  function spawn(args: readonly string[]): SwitchyardProcess {
    const child = spawnSwitchyard(args, env());
    processes.push(child);
    return child;
  }

  async function startApi(): Promise<{ process: SwitchyardProcess; url: string }> {
    const api = spawn(['serve']);
    const listening = await api.once('switchyard listening');
    return { process: api, url: String(listening['url']) };
  }

  beforeAll(async () => {
    await ensureDistBuilt();
    namespace = await createPipelineNamespace();
    let calls = 0;
    provider = await startFakeHttpServer(async (request): Promise<FakeResponse> => {
      const prompt = promptOf(request);
      received.set(prompt, (received.get(prompt) ?? 0) + 1);
      calls += 1;
      if (calls > answeredBeforeKill && heldPrompts.length < 2) {
        heldPrompts.push(prompt);
        if (heldPrompts.length === 2) heldReached();
        // Held until the worker that sent it is dead; its answer then reaches nobody.
        await new Promise<void>((resolve) => releaseHeld.push(resolve));
        return { status: 499, body: 'the caller is gone' };
      }
      answered.set(prompt, (answered.get(prompt) ?? 0) + 1);
      return chatCompletion({ model: 'gpt-4o-mini', content: `echo: ${prompt}`, usage: { promptTokens: 3, completionTokens: 2 } });
    });
  });

  afterAll(async () => {
    for (const release of releaseHeld) release();
    for (const child of processes) await child.kill('SIGTERM');
    await reader?.close();
    await kafkaAdmin?.close();
    await provider?.close();
    if (namespace !== undefined) await deletePipelineNamespace(namespace, { distributed: true });
  });

  /** Reads every topic of the namespace from the start (so its lag can reach 0), keeping llm.call events. */
  async function startReader(): Promise<void> {
    reader = await readTopics({
      clientId: `t${namespace.id}-reader`,
      groupId: `${namespace.kafkaTopicPrefix}test-reader`,
      topics: topics.map((topic) => `${namespace.kafkaTopicPrefix}${topic}`),
      onEvent: (value) => {
        const event = JSON.parse(value) as LlmCallEvent;
        if (event.type === 'llm.call') records.push(event);
      },
    });
  }

  const recordsOf = (batchId: string): LlmCallEvent[] => records.filter((event) => event.payload.batchId === batchId);

  it('finishes the batch with nothing lost and nothing that finished run twice', async () => {
    kafkaAdmin = createKafkaAdmin(namespace);
    const firstApi = await startApi();
    const merchant = await http(firstApi.url, 'POST', '/merchant-account/create', { merchant_id: 'shop-batch-kill' }, { 'x-admin-secret': adminSecret });
    expect(merchant.status).toBe(200);
    const auth = { 'x-api-key': String(merchant.body['api_key']) };

    const firstWorker = spawn(['worker', 'generation']);
    await firstWorker.once('worker running');
    // The workers have created the namespace's topics by now.
    await startReader();
    const submitted = await http(firstApi.url, 'POST', '/api/batches', { prompts }, auth);
    expect(submitted.status).toBe(202);
    const batchId = String(submitted.body['batchId']);

    // Two items in flight at the provider, eight answered and their records on Kafka: kill the
    // worker, then the API.
    await twoHeld;
    await pollUntil(
      'the answered items recorded on Kafka',
      async () => recordsOf(batchId).length,
      (count) => count >= answeredBeforeKill,
      60_000,
    );
    expect(await firstWorker.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await firstApi.process.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    for (const release of releaseHeld) release();
    const answeredAtKill = new Map(answered);
    expect([...answeredAtKill.values()].reduce((sum, count) => sum + count, 0)).toBe(answeredBeforeKill);

    // A new API answers from the same store: the batch is there, part done.
    const secondApi = await startApi();
    const midway = await http(secondApi.url, 'GET', `/api/batches/${batchId}`, undefined, auth);
    expect(midway.status).toBe(200);
    expect(midway.body).toMatchObject({ status: 'running', total: prompts.length });
    expect(Number(midway.body['pending'])).toBeGreaterThanOrEqual(prompts.length - answeredBeforeKill);

    const secondWorker = spawn(['worker', 'generation']);
    await secondWorker.once('worker running');
    // The held items come back once their dead worker's locks expire (JOB_LOCK_MS).
    const progress = await pollUntil(
      'batch completed by the second worker',
      async () => (await http(secondApi.url, 'GET', `/api/batches/${batchId}`, undefined, auth)).body,
      (body) => body['status'] === 'completed',
      120_000,
    );
    expect(progress).toMatchObject({ status: 'completed', total: prompts.length, succeeded: prompts.length, failed: 0, cancelled: 0, pending: 0 });

    // Nothing lost: every item has its own answer.
    const results = await http(secondApi.url, 'GET', `/api/batches/${batchId}/results?limit=100`, undefined, auth);
    const items = results.body['items'] as { index: number; prompt: string; status: string; content: string; jobId: string }[];
    expect(items.map((item) => [item.index, item.status, item.content, item.jobId])).toEqual(
      prompts.map((prompt, index) => [index, 'succeeded', `echo: ${prompt}`, `${batchId}:${index}`]),
    );

    // Nothing run twice: every prompt was answered by the provider exactly once; only the two
    // held in flight at the kill were sent again.
    expect(Object.fromEntries(answered)).toEqual(Object.fromEntries(prompts.map((prompt) => [prompt, 1])));
    expect(heldPrompts).toHaveLength(2);
    for (const prompt of prompts) expect(received.get(prompt), prompt).toBe(heldPrompts.includes(prompt) ? 2 : 1);
    for (const prompt of answeredAtKill.keys()) expect(heldPrompts).not.toContain(prompt);

    // A graceful stop finishes the jobs in hand, flushes its records and exits 0.
    expect(await secondWorker.kill('SIGTERM')).toEqual({ code: 0, signal: null });

    // Recorded once: one llm.call per item (the calls cut off by the kill never ended, so they
    // made no record), every one a success of surface batch carrying its job id.
    await pollUntil(
      'the test reader caught up with Kafka',
      () => consumerGroupLag(kafkaAdmin!, namespace, 'test-reader'),
      (lag) => lag === 0,
      60_000,
    );
    const batchRecords = recordsOf(batchId);
    expect(batchRecords.map((event) => event.payload.jobId).sort()).toEqual(prompts.map((_, index) => `${batchId}:${index}`).sort());
    expect(new Set(batchRecords.map((event) => event.id)).size).toBe(prompts.length);
    expect(batchRecords.every((event) => event.payload.outcome === 'success' && event.payload.surface === 'batch')).toBe(true);
  });
});
