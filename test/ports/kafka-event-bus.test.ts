import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Admin } from '@platformatic/kafka';
import { afterAll, beforeAll } from 'vitest';
import { createKafkaEventBus } from '../../src/adapters/kafka/kafka-event-bus.js';
import { silentLogger } from '../../src/logging/logger.js';
import { deleteKafkaNamespace, kafkaBrokers, uniqueNamespace } from '../integration/adapters/local-services.js';
import { eventBusSuite } from './event-bus.suite.js';
import { testKafkaAdmin } from '../fixtures/kafka-client.js';

let admin: Admin;

beforeAll(async () => {
  admin = testKafkaAdmin('sytest-admin', { retries: 2 });
  try {
    // The admin connects lazily: its first call is the reachability check.
    await admin.listTopics();
  } catch (error) {
    throw new Error(`Kafka is not reachable at ${kafkaBrokers.join(',')}: start it with \`bash deploy/local/start.sh kafka\``, { cause: error });
  }
});

afterAll(async () => {
  await admin?.close();
});

eventBusSuite(
  'kafka',
  async () => {
    const topicPrefix = `${uniqueNamespace('bus')}.`;
    const spoolDir = await mkdtemp(join(tmpdir(), 'sytest-spool-'));
    const bus = await createKafkaEventBus({
      brokers: kafkaBrokers,
      clientId: topicPrefix,
      topicPrefix,
      layout: { partitions: 4 },
      spoolDir,
      spoolMaxEvents: 10_000,
      lingerMs: 5,
      // The contract's drain case asserts what close hands over, not how soon: the 10 s default ran out
      // once at load 27 (a new group's join and first fetch). Below the project's 60 s test timeout.
      closeDrainTimeoutMs: 45_000,
      logger: silentLogger,
    });
    return {
      bus,
      async dispose() {
        await bus.close();
        await deleteKafkaNamespace(admin, topicPrefix);
        await rm(spoolDir, { recursive: true, force: true });
      },
    };
  },
  { batchesInFlight: true, mayDuplicate: true },
);
