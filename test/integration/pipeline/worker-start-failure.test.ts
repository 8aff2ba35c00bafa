import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteKafkaNamespace, kafkaBrokers, uniqueNamespace } from '../adapters/local-services.js';
import { testKafkaAdmin } from '../../fixtures/kafka-client.js';
import { ensureDistBuilt, spawnSwitchyard } from './switchyard-process.js';

/**
 * A worker whose ClickHouse cannot be reached at start exits with its error, so its supervisor
 * (Kubernetes, compose, the chaos bench) starts it again. It used to print the error and hang: the
 * Kafka bus it had already opened kept retrying and the process alive, never restarted (found by
 * bench/chaos.mjs --seed 2811, an analytics-sink restarted while ClickHouse was SIGKILLed). Real Kafka;
 * ClickHouse on a port nothing listens on.
 */
describe('a worker that cannot reach a service at start', () => {
  const prefix = `${uniqueNamespace('start-failure')}.`;
  const admin = testKafkaAdmin('sytest-start-failure');

  afterAll(async () => {
    await deleteKafkaNamespace(admin, prefix);
    await admin.close();
  });

  it('exits non-zero naming the unreachable analytics store, having opened Kafka first', { timeout: 120_000 }, async () => {
    await ensureDistBuilt();
    const worker = spawnSwitchyard(['worker', 'analytics-sink'], {
      DATA_DIR: mkdtempSync(join(tmpdir(), 'sytest-start-failure-')),
      KAFKA_BROKERS: kafkaBrokers.join(','),
      KAFKA_TOPIC_PREFIX: prefix,
      KAFKA_PARTITIONS: '1',
      CLICKHOUSE_URL: 'http://127.0.0.1:1',
      EMBEDDED_WORKERS: 'false',
      LOG_LEVEL: 'info',
    });
    // The bus was up (its topics checked) before the analytics store failed.
    await worker.once('Kafka topics');
    const { code } = await worker.exited;
    expect(code).toBe(1);
    expect(worker.count('worker running')).toBe(0);
  });
});
