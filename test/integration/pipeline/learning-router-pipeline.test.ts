import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../cli/start-service.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatError } from '../../fixtures/providers/openai-wire.js';
import { call, createMerchant, createPipelineNamespace, deletePipelineNamespace, pipelineEnv, type PipelineNamespace } from './pipeline-harness.js';
import { pollUntil } from '../../fixtures/poll-until.js';
import { createPinoSink } from './pino-sink.js';

/**
 * The learning router on the distributed spine: each gateway call's outcome travels as an
 * `llm.call` event through Kafka to the sr-windows worker, which updates the candidate's window in
 * Redis; the gateway reads the window back and moves traffic (and back, once the model recovers).
 */
describe('learning router (Redis, Kafka)', () => {
  let flakyDown = true;
  let provider: FakeHttpServer;
  let namespace: PipelineNamespace;
  let server: RunningServer | undefined;
  let auth: Record<string, string>;
  const group = (explorePercent: number) => ({
    candidates: [
      { provider: 'openai', model: 'flaky-model', weight: 2 },
      { provider: 'openai', model: 'steady-model', weight: 1 },
    ],
    bucketSize: 10,
    // One failure (9/10) puts the flaky model below the threshold: the decisions record its elimination.
    eliminationThreshold: 0.95,
    explorePercent,
    maxHops: 2,
  });

  beforeAll(async () => {
    provider = await startFakeHttpServer((request: RecordedRequest) => {
      const { model } = request.body as { model: string };
      return model === 'flaky-model' && flakyDown ? chatError('server-error', 'openai', model) : chatCompletion({ model, content: `from ${model}` });
    });
    namespace = await createPipelineNamespace();
    server = await startServer(loadConfig(pipelineEnv(namespace, { distributed: true, embeddedWorkers: true })), createPinoSink().logger, {
      toolkit: { cwd: mkdtempSync(join(tmpdir(), 'sytest-router-')), env: { OPENAI_API_KEY: 'sk-router', OPENAI_BASE_URL: `${provider.url}/v1` } },
    });
    auth = await createMerchant(server.url, 'router-dist');
  });

  afterAll(async () => {
    await server?.stop();
    if (namespace !== undefined) await deletePipelineNamespace(namespace, { distributed: true });
    await provider?.close();
  });

  const complete = async () => {
    const response = await fetch(`${server!.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${auth['x-api-key']}` },
      body: JSON.stringify({ model: 'chat', messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(response.status).toBe(200);
    return {
      model: ((await response.json()) as { model: string }).model,
      approach: response.headers.get('x-switchyard-routing-approach'),
      hops: Number(response.headers.get('x-switchyard-hops')),
    };
  };
  const put = async (body: unknown) => {
    const response = await fetch(`${server!.url}/v1/route-groups/chat`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.text()).toBe(200);
  };
  const flakyRate = async () =>
    ((await call(server!.url, 'GET', '/v1/route-groups/chat', undefined, auth)).body as { candidates: { successRate: number | null }[] }).candidates[0]
      ?.successRate ?? null;

  it('moves traffic away from a failing model and back after it recovers', async () => {
    await put(group(0));
    expect(await complete()).toMatchObject({ model: 'steady-model', approach: 'route_group:sr', hops: 1 });
    // The failed attempt reaches Redis through Kafka and the worker.
    await pollUntil('flaky window learns the failure', flakyRate, (rate) => rate === 0.9);
    expect(await complete()).toMatchObject({ model: 'steady-model', hops: 0 });

    flakyDown = false;
    await put(group(100));
    for (let i = 0; i < 10; i++) expect(await complete()).toMatchObject({ model: 'flaky-model', approach: 'route_group:explore', hops: 0 });
    await pollUntil('flaky window learns the recovery', flakyRate, (rate) => rate === 1);
    await put(group(0));
    expect(await complete()).toMatchObject({ model: 'flaky-model', approach: 'route_group:sr', hops: 0 });
  });

  it('shows the decisions in GET /analytics/llm/route-groups, through Kafka, the analytics sink and ClickHouse', async () => {
    // 13 requests: a failover, one call while the flaky model was eliminated, ten explored, one after it recovered.
    const read = async () =>
      (await call(server!.url, 'GET', '/analytics/llm/route-groups?range=1h&route_group=chat', undefined, auth)).body as {
        groups: {
          decisions: number;
          calls: number;
          approaches: Record<string, number>;
          candidates: { model: string; calls: number; share: number; errors: number; eliminated_decisions: number; eliminated: boolean }[];
        }[];
      };
    // Each attempt is its own llm.call event: the failover's second attempt can land in a later sink
    // batch than the 13 first attempts, so wait for every call, not only every decision. The report's
    // three reads (calls, decisions, eliminations) run side by side, so one read can meet a sink
    // batch that landed between them: wait until the eliminations have caught up too.
    const report = await pollUntil(
      'the route group report holds every decision, call and elimination',
      read,
      (body) =>
        body.groups[0]?.decisions === 13 &&
        body.groups[0].calls === 14 &&
        (body.groups[0].candidates.find((candidate) => candidate.model === 'flaky-model')?.eliminated_decisions ?? 0) >= 2,
    );
    const [chat] = report.groups;
    expect(chat).toMatchObject({ calls: 14, approaches: { sr: 2, sr_downtime: 1, explore: 10 } });
    expect(chat!.candidates.map((candidate) => [candidate.model, candidate.calls, candidate.share, candidate.errors])).toEqual([
      ['flaky-model', 12, 0.8571, 1],
      ['steady-model', 2, 0.1429, 0],
    ]);
    const flaky = chat!.candidates[0]!;
    // Eliminated from the second request until its window learned the recovery; not at the last decision.
    expect(flaky.eliminated_decisions).toBeGreaterThanOrEqual(2);
    expect(flaky.eliminated).toBe(false);
  });
});
