import { setTimeout as sleep } from 'node:timers/promises';
import type { Admin, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import { topicOf, type EventEnvelope } from '../../events/event-envelope.js';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { Logger } from '../../logging/logger.js';
import type { SubscribeOptions, Subscription } from '../../ports/event-bus.js';
import { toBusError } from './map-kafka-error.js';

export interface KafkaSubscriptionOptions {
  readonly kafka: Kafka;
  /** The bus's admin client, shared by every subscription for offset look-ups. */
  readonly admin: Admin;
  readonly groupId: string;
  readonly topicNames: readonly string[];
  readonly subscribe: SubscribeOptions;
  readonly logger: Logger;
  readonly validate: ((event: unknown) => void) | undefined;
  /** Resolves once events this process accepted before the call reached the broker. */
  readonly published: () => Promise<void>;
  /** Counts consumed messages skipped because they were not valid events. */
  readonly onInvalid: () => void;
}

export interface KafkaSubscription extends Subscription {
  readonly groupId: string;
}

/** 500 events: the default batch handed to a handler, as in the embedded bus. */
const defaultMaxBatchSize = 500;
/** Fetch size per partition: about 1 KiB per event of `maxBatchSize`, within 1–16 MiB. */
const bytesPerEvent = 1024;
const minPartitionFetchBytes = 1_048_576;
const maxPartitionFetchBytes = 16_777_216;
/** 50 ms between committed-offset checks in caughtUp(): the condition is polled, never slept on blindly. */
const caughtUpPollMs = 50;
/** 200 ms first redelivery delay after a handler failure, doubling to 5 s per partition. */
const firstRedeliveryDelayMs = 200;
const maxRedeliveryDelayMs = 5000;

function isEvent(value: unknown): value is EventEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { id?: unknown; type?: unknown };
  return typeof candidate.id === 'string' && typeof candidate.type === 'string' && candidate.type in topicOf;
}

/**
 * One member of a Kafka consumer group. Batches are handed over per partition, in offset order, in
 * slices of at most `maxBatchSize`; a slice's offset is committed only after the handler resolved.
 * When the handler throws, the partition is paused for a backoff and re-read from the slice's first
 * offset (at-least-once). Resolves once the member has joined the group.
 *
 * @remarks A new group starts at the earliest retained offset (`fromBeginning`), like the embedded
 * bus: a worker deployed after events were published still sees them.
 */
export async function startKafkaSubscription(options: KafkaSubscriptionOptions): Promise<KafkaSubscription> {
  const { groupId, subscribe } = options;
  const log = options.logger.child({ group: groupId });
  const maxBatchSize = subscribe.maxBatchSize ?? defaultMaxBatchSize;
  const lingerMs = subscribe.lingerMs ?? 0;
  // A batching consumer (the analytics sink: 20,000 events) gets whole batches out of a backlog,
  // not kafkajs's default 1 MiB (about 1,500 events) per partition and fetch.
  const partitionFetchBytes = Math.min(Math.max(maxBatchSize * bytesPerEvent, minPartitionFetchBytes), maxPartitionFetchBytes);
  const consumer = options.kafka.consumer({
    groupId,
    allowAutoTopicCreation: false,
    // The subscriber's linger is the broker-side batching window: a fetch waits until ~1 MiB is
    // there or the linger ran out (size and time bounds). Without a linger, 500 ms: an idle fetch
    // returns quickly enough that close() does not wait on a long poll.
    maxWaitTimeInMs: lingerMs > 0 ? lingerMs : 500,
    minBytes: lingerMs > 0 ? 1_048_576 : 1,
    maxBytesPerPartition: partitionFetchBytes,
    maxBytes: Math.max(10_485_760, 4 * partitionFetchBytes),
    // 10 s session / 1 s heartbeat: a dead member's partitions move on within seconds.
    sessionTimeout: 10_000,
    heartbeatInterval: 1000,
    retry: { retries: 8, initialRetryTime: 300, maxRetryTime: 5000 },
  });
  const failures = new Map<string, number>();
  const resumeTimers = new Set<NodeJS.Timeout>();
  let inFlight: Promise<void> | undefined;
  let closing = false;
  let closed: Promise<void> | undefined;

  consumer.on(consumer.events.CRASH, (event) => {
    const { error, restart } = event.payload;
    if (restart) log.warn({ err: error }, 'event consumer crashed; kafkajs restarts it');
    else log.error({ err: error }, 'event consumer stopped after a non-retriable error; this subscription no longer consumes');
  });

  function decode(message: KafkaMessage, topic: string, partition: number): EventEnvelope | undefined {
    try {
      const value: unknown = JSON.parse(message.value?.toString('utf8') ?? 'null');
      options.validate?.(value);
      if (!isEvent(value)) throw new TypeError('not an event envelope');
      return value;
    } catch (error) {
      // Redelivering a malformed message would never succeed: report it loudly and move past it.
      options.onInvalid();
      log.error({ err: error, topic, partition, offset: message.offset }, 'consumed message is not a valid event; skipped');
      return undefined;
    }
  }

  async function handleBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const slot = `${batch.topic}#${batch.partition}`;
    for (let index = 0; index < batch.messages.length; index += maxBatchSize) {
      if (closing || !payload.isRunning() || payload.isStale()) return;
      const slice = batch.messages.slice(index, index + maxBatchSize);
      const events = slice
        .map((message) => decode(message, batch.topic, batch.partition))
        .filter((event): event is EventEnvelope => event !== undefined);
      try {
        if (events.length > 0) await subscribe.handler(events);
      } catch (error) {
        const attempt = (failures.get(slot) ?? 0) + 1;
        failures.set(slot, attempt);
        const delayMs = Math.min(firstRedeliveryDelayMs * 2 ** (attempt - 1), maxRedeliveryDelayMs);
        log.error(
          { err: error, topic: batch.topic, partition: batch.partition, offset: slice[0]!.offset, size: events.length, attempt, retryInMs: delayMs },
          'event handler failed; batch will be redelivered',
        );
        consumer.seek({ topic: batch.topic, partition: batch.partition, offset: slice[0]!.offset });
        const resume = payload.pause();
        const timer = setTimeout(() => {
          resumeTimers.delete(timer);
          resume();
        }, delayMs);
        resumeTimers.add(timer);
        return;
      }
      failures.delete(slot);
      const last = slice[slice.length - 1]!.offset;
      payload.resolveOffset(last);
      await payload.commitOffsetsIfNecessary({
        topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: (BigInt(last) + 1n).toString() }] }],
      });
      await payload.heartbeat();
    }
  }

  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [...options.topicNames], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: (payload) => {
        const run = handleBatch(payload);
        // close() only waits for the slice in hand; its failure is kafkajs's to handle (returned below).
        inFlight = Promise.allSettled([run]).then(() => undefined);
        return run;
      },
    });
  } catch (error) {
    await consumer.disconnect().catch((disconnectError: unknown) => log.debug({ err: disconnectError }, 'consumer disconnect after failed subscribe'));
    throw toBusError(error, 'subscribe', `could not join consumer group ${groupId}`);
  }

  /** True when the group's committed offset has reached the high watermark of every partition. */
  async function isCaughtUp(targets: ReadonlyMap<string, bigint>): Promise<boolean> {
    const committed = await options.admin.fetchOffsets({ groupId, topics: [...options.topicNames] });
    for (const { topic, partitions } of committed) {
      for (const { partition, offset } of partitions) {
        const target = targets.get(`${topic}#${partition}`) ?? 0n;
        const reached = offset === '-1' ? 0n : BigInt(offset);
        if (reached < target) return false;
      }
    }
    return true;
  }

  async function highWatermarks(): Promise<Map<string, bigint>> {
    const targets = new Map<string, bigint>();
    for (const topic of options.topicNames) {
      for (const { partition, high } of await options.admin.fetchTopicOffsets(topic)) targets.set(`${topic}#${partition}`, BigInt(high));
    }
    return targets;
  }

  async function caughtUp(): Promise<void> {
    await options.published();
    let targets: Map<string, bigint> | undefined;
    for (;;) {
      try {
        targets ??= await highWatermarks();
        if (await isCaughtUp(targets)) return;
      } catch (error) {
        // The broker may be restarting; the condition is simply checked again.
        log.debug({ err: error }, 'committed offsets not readable yet');
      }
      if (closed !== undefined) {
        throw new SwitchyardError('SY_BUS_UNAVAILABLE', { message: 'subscription closed before it caught up', details: { group: groupId } });
      }
      await sleep(caughtUpPollMs);
    }
  }

  return {
    groupId,
    caughtUp,
    close() {
      closed ??= (async () => {
        closing = true;
        for (const timer of resumeTimers) clearTimeout(timer);
        resumeTimers.clear();
        await inFlight; // the slice in hand finishes and commits before the member leaves
        try {
          await consumer.disconnect();
        } catch (error) {
          throw toBusError(error, 'unsubscribe');
        }
      })();
      return closed;
    },
  };
}
