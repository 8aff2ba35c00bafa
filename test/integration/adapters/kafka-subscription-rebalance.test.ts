import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FetchIsolationLevels, ListOffsetTimestamps, type Admin } from '@platformatic/kafka';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaEventBus, type KafkaEventBus } from '../../../src/adapters/kafka/kafka-event-bus.js';
import type { EventEnvelope } from '../../../src/events/event-envelope.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { Subscription } from '../../../src/ports/event-bus.js';
import { apiRequested } from '../../fixtures/api-requested.js';
import { testKafkaAdmin } from '../../fixtures/kafka-client.js';
import { deleteKafkaNamespace, kafkaBrokers, uniqueNamespace } from './local-services.js';

/**
 * Issue 35: a member of a consumer group whose slice was in its handler when a rebalance moved one
 * of the slice's partitions to another member. The client retries a commit across a rejoin, and a
 * classic group takes any member's commit for any partition, so committing that slice's offsets
 * after the move wrote the old owner's offset over the new owner's: the group's committed offset
 * went back while the new owner, already past it, never read there again (the chaos bench's
 * analytics sink stayed 42 events behind after a broker restart). Here the old owner's slice is
 * held in its handler until the new owner has committed its partition to the end; after the old
 * owner commits, the moved partition's committed offset must still be the end.
 */

const events = (count: number): EventEnvelope[] => Array.from({ length: count }, (_, index) => apiRequested('m-rebalance', undefined, index));

describe('Kafka subscription across a rebalance with a slice in the handler', () => {
  let admin: Admin;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(() => {
    admin = testKafkaAdmin('sytest-rebalance-admin', { retries: 2 });
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  afterAll(async () => {
    await admin?.close();
  });

  it('never commits a partition that moved to another member over that member’s commit', { timeout: 60_000 }, async () => {
    const topicPrefix = `${uniqueNamespace('rebalance')}.`;
    const spoolDir = await mkdtemp(join(tmpdir(), 'sytest-spool-'));
    cleanups.push(async () => {
      await deleteKafkaNamespace(admin, topicPrefix);
      await rm(spoolDir, { recursive: true, force: true });
    });
    const bus: KafkaEventBus = await createKafkaEventBus({
      brokers: kafkaBrokers,
      clientId: topicPrefix,
      topicPrefix,
      layout: { partitions: 2 },
      spoolDir,
      spoolMaxEvents: 10_000,
      lingerMs: 5,
      logger: silentLogger,
    });
    const subscriptions: Subscription[] = [];
    cleanups.push(async () => {
      for (const subscription of subscriptions) await subscription.close();
      await bus.close();
    });
    const topic = `${topicPrefix}api`;
    const groupId = `${topicPrefix}sink`;
    const partitions = [0, 1];

    async function ends(): Promise<bigint[]> {
      const [listed] = await admin.listOffsets({
        topics: [{ name: topic, partitions: partitions.map((partitionIndex) => ({ partitionIndex, timestamp: ListOffsetTimestamps.LATEST })) }],
        isolationLevel: FetchIsolationLevels.READ_COMMITTED,
      });
      const byPartition = new Map(listed!.partitions.map((entry) => [entry.partitionIndex, entry.offset]));
      return partitions.map((partition) => byPartition.get(partition) ?? 0n);
    }
    async function committed(): Promise<bigint[]> {
      const groups = await admin.listConsumerGroupOffsets({ groups: [{ groupId, topics: [{ name: topic, partitionIndexes: partitions }] }] });
      const byPartition = new Map(
        (groups.find((group) => group.groupId === groupId)?.topics ?? []).flatMap((entry) =>
          entry.partitions.map((partition) => [partition.partitionIndex, partition.committedOffset] as const),
        ),
      );
      return partitions.map((partition) => byPartition.get(partition) ?? -1n);
    }

    // 40 events on random payment ids: both partitions get some.
    await bus.publish(events(40));
    const before = await ends();
    expect(before.every((end) => end > 0n)).toBe(true);

    // The first member takes all 40 in one slice (a full slice of 40 is handed over at once) and
    // holds it in its handler.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let firstSlice: readonly EventEnvelope[] | undefined;
    subscriptions.push(
      await bus.subscribe({
        group: 'sink',
        topics: ['api'],
        maxBatchSize: 40,
        lingerMs: 500,
        handler: async (batch) => {
          if (firstSlice !== undefined) return;
          firstSlice = batch;
          await held;
        },
      }),
    );
    await expect.poll(() => firstSlice?.length, { timeout: 20_000 }).toBe(40);

    // More events on both partitions, then a second member: the rebalance gives each member one
    // partition, and the second reads its partition from the start (nothing is committed yet),
    // handles it and commits it to the end while the first still holds its slice.
    await bus.publish(events(40));
    const after = await ends();
    expect(after.every((end, partition) => end > before[partition]!)).toBe(true);
    subscriptions.push(await bus.subscribe({ group: 'sink', topics: ['api'], handler: async () => undefined }));
    let moved = -1;
    await expect
      .poll(
        async () => {
          moved = (await committed()).findIndex((offset, partition) => offset === after[partition]);
          return moved;
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBeGreaterThanOrEqual(0);
    const kept = 1 - moved;

    // The first member's slice ends: it commits what it still holds and drains the rest of it.
    release();
    await expect.poll(async () => (await committed())[kept], { timeout: 30_000, interval: 100 }).toBe(after[kept]);
    expect((await committed())[moved]).toBe(after[moved]);
  });
});
