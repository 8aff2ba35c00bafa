import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../cli/start-service.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { decideBody } from '../../helpers/test-app.js';
import { redisUrl } from '../adapters/local-services.js';
import { analyticsEndpointNames, expectAnalyticsShape, overviewKpi } from './analytics-shapes.js';
import {
  call,
  createMerchant,
  createPipelineNamespace,
  decisionsTile,
  deletePipelineNamespace,
  pipelineEnv,
  scanKeys,
  type PipelineNamespace,
} from './pipeline-harness.js';
import { pollUntil } from '../../fixtures/poll-until.js';
import { createPinoSink } from './pino-sink.js';
import { readTopics, type TopicReader } from '../../fixtures/kafka-client.js';

interface SeenEvent {
  readonly id: string;
  readonly type: string;
  readonly merchantId: string;
  readonly payload: { readonly paymentId?: string; readonly gateway?: string };
}

/**
 * The whole distributed spine on the local servers: API → Kafka → analytics-sink → ClickHouse →
 * /analytics, and API → Kafka → sr-windows → Redis → the next decision.
 */
describe('distributed pipeline (Redis, Kafka, ClickHouse)', () => {
  const merchantId = 'shop-dist';
  let namespace: PipelineNamespace;
  let server: RunningServer | undefined;
  let reader: TopicReader | undefined;
  let redis: Redis | undefined;
  let auth: Record<string, string>;
  const sink = createPinoSink();
  const seen: SeenEvent[] = [];
  const seenWaiters: { match: (event: SeenEvent) => boolean; resolve: (event: SeenEvent) => void }[] = [];

  /** Resolves once the test's own Kafka consumer has read a matching event from the namespaced topic. */
  function kafkaEvent(match: (event: SeenEvent) => boolean, timeoutMs = 30_000): Promise<SeenEvent> {
    const found = seen.find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching event on ${namespace.kafkaTopicPrefix}routing within ${timeoutMs} ms`)), timeoutMs);
      seenWaiters.push({
        match,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event);
        },
      });
    });
  }

  beforeAll(async () => {
    namespace = await createPipelineNamespace();
    const config = loadConfig(pipelineEnv(namespace, { distributed: true, embeddedWorkers: true }));
    server = await startServer(config, sink.logger);
    expect(server.runtime.mode).toEqual({ state: 'redis', bus: 'kafka', analytics: 'clickhouse', jobs: 'bullmq' });
    expect(server.workers.map((worker) => worker.name).sort()).toEqual([
      'analytics-sink',
      'autopilot',
      'experiment-guardrail',
      'generation',
      'sr-windows',
      'volume-commitment',
    ]);
    auth = await createMerchant(server.url, merchantId);

    reader = await readTopics({
      clientId: `t${namespace.id}-reader`,
      groupId: `${namespace.kafkaTopicPrefix}test-reader`,
      topics: [`${namespace.kafkaTopicPrefix}routing`],
      onEvent: (value) => {
        const event = JSON.parse(value) as SeenEvent;
        seen.push(event);
        for (let i = seenWaiters.length - 1; i >= 0; i--) {
          if (seenWaiters[i]!.match(event)) seenWaiters.splice(i, 1)[0]!.resolve(event);
        }
      },
    });
    redis = new Redis(redisUrl);
  });

  afterAll(async () => {
    await reader?.close();
    redis?.disconnect();
    await server?.stop();
    if (namespace !== undefined) await deletePipelineNamespace(namespace, { distributed: true });
  });

  it('carries a decision through Kafka into ClickHouse and its feedback through Redis into the next decision when every adapter is distributed', async () => {
    const url = server!.url;
    const first = await call(url, 'POST', '/decide-gateway', decideBody(merchantId, 'pay-1'), auth);
    expect(first.status).toBe(200);
    const chosen = first.body.decided_gateway as string;
    expect(first.body.gateway_priority_map).toEqual({ stripe: 1, adyen: 1 });

    // The decision event is on the namespaced Kafka topic, as the API published it.
    const onKafka = await kafkaEvent((event) => event.type === 'decision.created' && event.payload.paymentId === 'pay-1');
    expect(onKafka).toMatchObject({ merchantId, payload: { gateway: chosen } });
    expect(server!.runtime.bus.health()).toMatchObject({ connected: true, spooled: 0, spoolFull: false });

    // analytics-sink wrote it to ClickHouse: visible to the analytics reads.
    expect(
      await pollUntil(
        'decision in /analytics/decisions',
        () => decisionsTile(url, auth),
        (count) => count === 1,
      ),
    ).toBe(1);
    const audit = await pollUntil(
      'decision in /analytics/payment-audit',
      () => call(url, 'GET', '/analytics/payment-audit?payment_id=pay-1&range=1d', undefined, auth),
      (response) => response.status === 200 && response.body.timeline.some((entry: { flow_type: string }) => entry.flow_type === 'decide_gateway_decision'),
    );
    expect(audit.body.results).toHaveLength(1);
    expect(audit.body.results[0]).toMatchObject({ payment_id: 'pay-1', merchant_id: merchantId, latest_gateway: chosen });
    const decisionEntry = audit.body.timeline.find((entry: { flow_type: string }) => entry.flow_type === 'decide_gateway_decision');
    expect(decisionEntry).toMatchObject({ payment_id: 'pay-1', gateway: chosen, id: onKafka.id });

    // Feedback → sr-windows (through Kafka) → a window in Redis under the namespace.
    const feedback = await call(url, 'POST', '/update-gateway-score', { merchantId, gateway: chosen, paymentId: 'pay-1', status: 'FAILURE' }, auth);
    expect(feedback.status).toBe(200);
    for (const worker of server!.workers) await worker.caughtUp();
    const windowKeys = await scanKeys(redis!, `${namespace.redisKeyPrefix}{*_}queue`);
    expect(windowKeys.some((key) => key.includes(chosen))).toBe(true);

    // The next decision sees the failure.
    const second = await call(url, 'POST', '/decide-gateway', decideBody(merchantId, 'pay-2'), auth);
    expect(second.status).toBe(200);
    expect(second.body.gateway_priority_map[chosen]).toBeLessThan(1);
    expect(second.body.decided_gateway).not.toBe(chosen);

    // The feedback and the score snapshot reached ClickHouse too.
    const fedBack = await pollUntil(
      'feedback in /analytics/payment-audit',
      () => call(url, 'GET', '/analytics/payment-audit?payment_id=pay-1&range=1d', undefined, auth),
      (response) => response.body.timeline.some((entry: { flow_type: string }) => entry.flow_type === 'update_gateway_score_update'),
    );
    expect(fedBack.body.timeline.map((entry: { flow_type: string }) => entry.flow_type)).toEqual(
      expect.arrayContaining(['decide_gateway_request_hit', 'decide_gateway_decision', 'update_gateway_score_update']),
    );
    const overview = await pollUntil(
      'score snapshot in /analytics/overview',
      () => call(url, 'GET', '/analytics/overview', undefined, auth),
      (response) => response.status === 200 && overviewKpi(response.body, 'Score snapshots') === 1 && overviewKpi(response.body, 'Decision events / 1h') === 2,
    );
    expect(overview.body.top_scores[0]).toMatchObject({ merchant_id: merchantId, gateway: chosen });
  });

  it('answers every analytics endpoint with the reference shape when asked with default parameters', async () => {
    const url = server!.url;
    for (const endpoint of analyticsEndpointNames) {
      const response = await call(url, 'GET', `/analytics/${endpoint}`, undefined, { ...auth, 'x-tenant-id': 'public' });
      expect(response.status, endpoint).toBe(200);
      expectAnalyticsShape(endpoint, response.body, merchantId);
    }
    const bare = await call(url, 'GET', '/analytics', undefined, auth);
    expect(bare.status).toBe(200);
    expectAnalyticsShape('overview', bare.body, merchantId);
  });

  it('answers 400 naming the parameter when an analytics parameter is invalid', async () => {
    const url = server!.url;
    for (const [endpoint, query, parameter] of [
      ['log-summaries', 'page=abc', 'page'],
      ['decisions', 'range=2y', 'range'],
      ['payment-audit', 'page_size=ten', 'page_size'],
      ['overview', 'start_ms=-5&end_ms=10', 'start_ms'],
    ] as const) {
      const response = await call(url, 'GET', `/analytics/${endpoint}?${query}`, undefined, auth);
      expect(response.status, `${endpoint}?${query}`).toBe(400);
      expect(response.body.message, `${endpoint}?${query}`).toContain(parameter);
    }
  });
});
