import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Admin, ConfigResourceTypes } from '@platformatic/kafka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaEventBus, type KafkaEventBusOptions } from '../../../src/adapters/kafka/kafka-event-bus.js';
import type { TopicLayoutSettings } from '../../../src/adapters/kafka/topic-layout.js';
import { silentLogger } from '../../../src/logging/logger.js';
import { testKafkaAdmin } from '../../fixtures/kafka-client.js';
import { deleteKafkaNamespace, kafkaBrokers, uniqueNamespace } from './local-services.js';

/** Topic creation and the start-up check against the layout, on the real (single-broker) Kafka. */
describe('Kafka topics against the configured layout', () => {
  let admin: Admin;
  let spoolDir: string;
  const prefixes: string[] = [];

  beforeAll(async () => {
    admin = testKafkaAdmin('sytest-layout-admin', { retries: 2 });
    await admin.listTopics();
    spoolDir = await mkdtemp(join(tmpdir(), 'sytest-layout-spool-'));
  });

  afterAll(async () => {
    for (const prefix of prefixes) await deleteKafkaNamespace(admin, prefix);
    await admin?.close();
    await rm(spoolDir, { recursive: true, force: true });
  });

  function options(topicPrefix: string, layout: TopicLayoutSettings): KafkaEventBusOptions {
    return {
      brokers: kafkaBrokers,
      clientId: topicPrefix,
      topicPrefix,
      layout,
      spoolDir: join(spoolDir, topicPrefix),
      spoolMaxEvents: 100,
      lingerMs: 5,
      logger: silentLogger,
    };
  }

  function newPrefix(): string {
    const prefix = `${uniqueNamespace('layout')}.`;
    prefixes.push(prefix);
    return prefix;
  }

  it('creates each topic with its partitions and min.insync.replicas, and starts again on the same layout', async () => {
    const prefix = newPrefix();
    const layout = { partitions: 2, partitionsByTopic: 'llm=5' };
    await (await createKafkaEventBus(options(prefix, layout))).close();
    const metadata = await admin.metadata({ topics: [`${prefix}routing`, `${prefix}llm`], forceUpdate: true });
    expect(metadata.topics.get(`${prefix}routing`)?.partitionsCount).toBe(2);
    expect(metadata.topics.get(`${prefix}llm`)?.partitionsCount).toBe(5);
    const [config] = await admin.describeConfigs({
      resources: [{ resourceType: ConfigResourceTypes.TOPIC, resourceName: `${prefix}llm`, configurationKeys: ['min.insync.replicas'] }],
    });
    expect(config?.configs.find((entry) => entry.name === 'min.insync.replicas')?.value).toBe('1');
    await (await createKafkaEventBus(options(prefix, layout))).close();
  });

  it('refuses to start on existing topics whose partitions differ, naming each topic', async () => {
    const prefix = newPrefix();
    await (await createKafkaEventBus(options(prefix, { partitions: 2 }))).close();
    const start = createKafkaEventBus(options(prefix, { partitions: 2, partitionsByTopic: 'routing=3,scores=4' }));
    await expect(start).rejects.toMatchObject({ code: 'SY_CONFIG_INVALID' });
    await expect(start).rejects.toThrow(
      new RegExp(`${prefix}routing has 2 partition\\(s\\), 3 configured; ${prefix}scores has 2 partition\\(s\\), 4 configured`),
    );
  });

  it('refuses a replication factor the cluster cannot hold, before creating anything', async () => {
    const prefix = newPrefix();
    await expect(createKafkaEventBus(options(prefix, { partitions: 1, replicationFactor: 3 }))).rejects.toThrow(
      /KAFKA_REPLICATION_FACTOR is 3 but the cluster has 1 broker/,
    );
    expect((await admin.listTopics()).filter((topic) => topic.startsWith(prefix))).toEqual([]);
  });
});
