import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Consumer, MessagesStreamFallbackModes, MessagesStreamModes, stringDeserializer, type Message, type MessagesStream } from '@platformatic/kafka';
import { topicOf, type EventEnvelope } from '../../events/event-envelope.js';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { Logger } from '../../logging/logger.js';
import type { SubscribeOptions, Subscription } from '../../ports/event-bus.js';
import type { KafkaConnection } from './kafka-connection.js';
import { toBusError } from './map-kafka-error.js';
import { attachTraceHeaders, processInEventTrace } from '../telemetry/event-trace-context.js';

export interface KafkaSubscriptionOptions {
  readonly connection: KafkaConnection;
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

type EventMessage = Message<Buffer, string, Buffer, Buffer>;
type EventConsumer = Consumer<Buffer, string, Buffer, Buffer>;
type EventStream = MessagesStream<Buffer, string, Buffer, Buffer>;
/** One partition's commit: the offset after the last message of a handed-over slice. */
interface CommitTarget {
  readonly topic: string;
  readonly partition: number;
  readonly offset: bigint;
  readonly leaderEpoch: number;
}

/** 500 events: the default batch handed to a handler, as in the embedded bus. */
const defaultMaxBatchSize = 500;
/**
 * 1 MiB per partition and fetch (~1,400 decision events). Larger fetches cost more CPU per event, not
 * less: the client reads a response as the list of socket chunks it arrived in and finds each field's
 * chunk by walking that list from its start (@platformatic/dynamic-buffer 0.3), so every read costs in
 * proportion to the fetch size. With 16 MiB fetches that walk was ~13 % of the analytics sink's CPU; at
 * 1 MiB it is below 1 %. Batches larger than a fetch still fill up, from the fetches made meanwhile.
 */
const partitionFetchBytes = 1_048_576;
const maxFetchBytes = 10_485_760;
/** 50 ms between committed-offset checks in caughtUp(): the condition is polled, never slept on blindly. */
const caughtUpPollMs = 50;
/** 200 ms first redelivery delay after a handler failure, doubling to 5 s. */
const firstRedeliveryDelayMs = 200;
const maxRedeliveryDelayMs = 5000;
/** 250 ms first attempt to consume again after the stream failed (broker gone), doubling to 5 s. */
const firstRestartDelayMs = 250;
const maxRestartDelayMs = 5000;
/** 10 s (the session timeout) at most waiting for a rejoin in progress to end before committing. */
const rejoinWaitMs = 10_000;

function isEvent(value: unknown): value is EventEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { id?: unknown; type?: unknown };
  return typeof candidate.id === 'string' && typeof candidate.type === 'string' && candidate.type in topicOf;
}

const partitionSlot = (topic: string, partition: number): string => `${topic}#${partition}`;

/**
 * Makes the stream take the partition's read position afresh (committed, else earliest) on its next
 * assignment. The key is the client's own (`topic:partition`, @platformatic/kafka 2.12).
 */
function forgetReadPosition(stream: EventStream, message: EventMessage): void {
  stream.offsetsToFetch.delete(`${message.topic}:${message.partition}`);
}

/**
 * One member of a Kafka consumer group. Fetched messages queue up in fetch order (offset order per
 * partition); the handler gets them in slices of at most `maxBatchSize` (waiting up to `lingerMs` for
 * a full slice), and only after it resolved is the offset after each partition's last message of the
 * slice committed. When the handler throws, the same slice is handed over again after a backoff, so
 * nothing later in any partition overtakes it (at-least-once); with `batchesInFlight` above 1 later
 * slices may be handled meanwhile, but none commits before it. Resolves once the member has joined.
 *
 * The client's message stream ends on a fetch failure (the broker went away); the member then
 * consumes again with a backoff, from the committed offsets, dropping what it had fetched but not
 * yet handed over. On a rebalance the queue keeps what belongs to partitions still assigned, and the
 * stream's re-read of those offsets is skipped (each partition's next expected offset is tracked):
 * dropping them relied on the re-read, which a fetch sent before the join and answered after it
 * moves past again (the chaos bench lost messages so, after a broker SIGSTOP/SIGCONT). Duplicates
 * remain possible (a slice handled while its partition moved, a commit lost with the broker):
 * handlers are idempotent by event id.
 *
 * A slice commits only the partitions this member held without a break from the hand-over to the
 * commit. The client retries a commit refused for a rebalance (REBALANCE_IN_PROGRESS,
 * ILLEGAL_GENERATION) after rejoining, with the new generation, and a classic group accepts any
 * member's commit for any partition: a slice handled before its partition moved would otherwise
 * commit its older offset over the new owner's, and the new owner, already past it, never reads
 * there again (the chaos bench's sink lag stuck at 42 after a broker restart, issue 35). So each
 * rejoin removes the moved partitions from the commits still pending (the client reads that same
 * array on its retry), and a commit waits for a rejoin in progress to end: one sent meanwhile fails
 * and makes the client rejoin once more, and a leader's rejoin is a new rebalance of the group.
 *
 * @remarks A new group starts at the earliest retained offset, like the embedded bus: a worker
 * deployed after events were published still sees them.
 */
export async function startKafkaSubscription(options: KafkaSubscriptionOptions): Promise<KafkaSubscription> {
  const { groupId, subscribe } = options;
  const topicNames = [...options.topicNames];
  const log = options.logger.child({ group: groupId });
  const maxBatchSize = subscribe.maxBatchSize ?? defaultMaxBatchSize;
  const lingerMs = subscribe.lingerMs ?? 0;
  const batchesInFlight = Math.max(1, Math.floor(subscribe.batchesInFlight ?? 1));
  // Fetching pauses while two slices wait, so a slow handler bounds memory instead of the backlog.
  const pauseAt = 2 * maxBatchSize;
  const consumer: EventConsumer = new Consumer({
    ...options.connection,
    groupId,
    // Only the value is read (the event); keys and headers stay the buffers they arrived as.
    deserializers: { value: stringDeserializer },
    autocommit: false,
    // The subscriber's linger is the broker-side batching window: a fetch waits until ~1 MiB is
    // there or the linger ran out. Without one, 500 ms: an idle fetch returns quickly enough that
    // close() does not wait on a long poll.
    maxWaitTime: lingerMs > 0 ? lingerMs : 500,
    minBytes: lingerMs > 0 ? 1_048_576 : 1,
    maxBytesPerPartition: partitionFetchBytes,
    maxBytes: maxFetchBytes,
    // 10 s session / 1 s heartbeat: a dead member's partitions move on within seconds.
    sessionTimeout: 10_000,
    heartbeatInterval: 1000,
    retries: 8,
    retryDelay: 300,
  });

  let queue: EventMessage[] = [];
  /** Per partition slot, the offset after the last message taken into the queue (held or handed over). */
  const nextOffsets = new Map<string, bigint>();
  /** The commit targets of slices handed over and not committed yet; a rejoin prunes them in place. */
  const pendingCommits = new Set<CommitTarget[]>();
  /** The generation and member id of the last join: a later join continues it or starts afresh. */
  let joinedGeneration: number | undefined;
  let joinedMember: string | null = null;
  let stream: EventStream | undefined;
  let closing = false;
  let closed: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  /** Queue length that wakes the waiting loop: 1 while idle, a full slice while lingering. */
  let wakeAt = 1;
  const stop = new AbortController();

  function signal(): void {
    const current = wake;
    wake = undefined;
    current?.();
  }

  /**
   * Resolves once `atLeast` messages wait, on stream end or close, or after `ms` (when given). Waking
   * only at the size that matters keeps a 20,000-event linger from costing a promise per message.
   */
  function nextChange(atLeast: number, ms?: number): Promise<void> {
    wakeAt = atLeast;
    return new Promise<void>((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  function decode(message: EventMessage): EventEnvelope | undefined {
    try {
      const value: unknown = JSON.parse(message.value ?? 'null');
      options.validate?.(value);
      if (!isEvent(value)) throw new TypeError('not an event envelope');
      attachTraceHeaders(value, message.headers);
      return value;
    } catch (error) {
      // Redelivering a malformed message would never succeed: report it loudly and move past it.
      options.onInvalid();
      log.error(
        { err: error, topic: message.topic, partition: message.partition, offset: message.offset.toString() },
        'consumed message is not a valid event; skipped',
      );
      return undefined;
    }
  }

  function isAssignedPartition(topic: string, partition: number): boolean {
    return consumer.assignments?.some((assignment) => assignment.topic === topic && assignment.partitions.includes(partition)) === true;
  }

  function isAssigned(message: EventMessage): boolean {
    return isAssignedPartition(message.topic, message.partition);
  }

  /** Starts consuming from the committed offsets; the new stream becomes `stream`. */
  async function openStream(): Promise<void> {
    const opened: EventStream = await consumer.consume({
      topics: topicNames,
      mode: MessagesStreamModes.COMMITTED,
      fallbackMode: MessagesStreamFallbackModes.EARLIEST,
      autocommit: false,
      // Session and heartbeat come from the consumer's options, for this join and every rejoin.
      highWaterMark: pauseAt,
    });
    stream = opened;
    opened.on('data', (message: EventMessage) => {
      if (stream !== opened) return; // a late message of a stream already given up
      // A fetch sent before a rebalance can answer after it, with messages of partitions that moved
      // to another member: theirs to handle. The stream has already moved its read position past
      // them, and on a later assignment it would keep that position when the group has no commit
      // there yet (@platformatic/kafka 2.12 #assignOffsets), skipping them: forget the position.
      const slot = partitionSlot(message.topic, message.partition);
      if (!isAssigned(message)) {
        nextOffsets.delete(slot);
        forgetReadPosition(opened, message);
        return;
      }
      // A re-read (after a rejoin) of what this member already holds or handed over.
      const next = nextOffsets.get(slot);
      if (next !== undefined && message.offset < next) return;
      nextOffsets.set(slot, message.offset + 1n);
      queue.push(message);
      if (queue.length >= pauseAt) opened.pause();
      if (queue.length >= wakeAt) signal();
    });
    opened.on('error', (error: Error) => {
      if (!closing) log.warn({ err: error }, 'event consumer stream failed; consuming again from the committed offsets');
    });
    opened.on('close', () => {
      if (stream !== opened) return;
      stream = undefined;
      queue = [];
      // The next stream starts from the committed offsets: whatever it reads is new to the queue.
      nextOffsets.clear();
      signal();
    });
  }

  // A rebalance makes the stream re-read every assigned partition from its committed offset. What
  // waits in the queue for a partition still assigned stays (its re-read is skipped by offset: a
  // fetch answered after the join can move the read position past it again, so it might never come
  // back); what belongs to partitions that moved is dropped, their positions forgotten (where the
  // group has no commit yet the stream would keep its read position, past the dropped messages).
  // The commits still pending lose the partitions that moved, and all of them on a join that does
  // not follow the last one (this member dropped out in between: a generation skipped, a new member
  // id), since another member may have held every partition meanwhile and committed past them.
  // Runs before the stream's own listener (registered later), which does the re-read.
  consumer.on('consumer:group:join', () => {
    const generation = consumer.generationId;
    const continuous =
      joinedGeneration !== undefined && consumer.memberId === joinedMember && (generation === joinedGeneration || generation === joinedGeneration + 1);
    joinedGeneration = generation;
    joinedMember = consumer.memberId;
    const kept: EventMessage[] = [];
    for (const message of queue) {
      if (isAssigned(message)) kept.push(message);
      else if (stream !== undefined) forgetReadPosition(stream, message);
    }
    const dropped = queue.length - kept.length;
    queue = kept;
    for (const slot of [...nextOffsets.keys()]) {
      const at = slot.lastIndexOf('#');
      if (!isAssignedPartition(slot.slice(0, at), Number(slot.slice(at + 1)))) nextOffsets.delete(slot);
    }
    let withdrawn = 0;
    for (const targets of pendingCommits) {
      for (let index = targets.length - 1; index >= 0; index--) {
        const target = targets[index]!;
        if (continuous && isAssignedPartition(target.topic, target.partition)) continue;
        targets.splice(index, 1);
        withdrawn += 1;
      }
    }
    log.debug(
      {
        generation,
        continuous,
        assigned: consumer.assignments?.map((assignment) => `${assignment.topic}#${assignment.partitions.join(',')}`),
        dropped,
        withdrawnCommits: withdrawn,
      },
      'event consumer joined its group',
    );
  });
  // A failed rejoin (broker gone) is reported here; the stream's fetches fail too and the member
  // consumes again, joining anew, once the broker answers.
  consumer.on('error', (error: Error) => {
    if (!closing) log.warn({ err: error }, 'event consumer lost its group membership');
  });

  async function reopen(): Promise<void> {
    let delayMs = firstRestartDelayMs;
    while (!closing) {
      try {
        await sleep(delayMs, undefined, { signal: stop.signal });
        await openStream();
        log.info({ topics: topicNames }, 'event consumer consuming again');
        return;
      } catch (error) {
        if (closing) return;
        log.warn({ err: error, retryInMs: delayMs }, 'event consumer could not consume yet');
        delayMs = Math.min(delayMs * 2, maxRestartDelayMs);
      }
    }
  }

  /** The next slice to hand over, or undefined once closing. Waits for arrivals and the linger. */
  async function nextSlice(): Promise<EventMessage[] | undefined> {
    for (;;) {
      if (closing) return undefined;
      if (stream === undefined) {
        await reopen();
        continue;
      }
      if (queue.length === 0) {
        await nextChange(1);
        continue;
      }
      if (lingerMs > 0 && queue.length < maxBatchSize) {
        const deadline = Date.now() + lingerMs;
        while (!closing && stream !== undefined && queue.length > 0 && queue.length < maxBatchSize && Date.now() < deadline)
          await nextChange(maxBatchSize, deadline - Date.now());
        if (closing || stream === undefined || queue.length === 0) continue;
      }
      const slice = queue.splice(0, maxBatchSize);
      if (queue.length < pauseAt && stream.isPaused()) stream.resume();
      return slice;
    }
  }

  async function handleWithRedelivery(events: readonly EventEnvelope[], first: EventMessage): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await processInEventTrace(events, { system: 'kafka', group: subscribe.group }, () => subscribe.handler(events));
        return true;
      } catch (error) {
        const delayMs = Math.min(firstRedeliveryDelayMs * 2 ** (attempt - 1), maxRedeliveryDelayMs);
        log.error(
          { err: error, topic: first.topic, partition: first.partition, offset: first.offset.toString(), size: events.length, attempt, retryInMs: delayMs },
          'event handler failed; batch will be redelivered',
        );
        try {
          await sleep(delayMs, undefined, { signal: stop.signal });
        } catch {
          return false; // closing: the slice stays uncommitted and comes again after a restart
        }
      }
    }
  }

  /** The offset after each partition's last message of the slice, pending until committed. */
  function commitTargets(slice: readonly EventMessage[]): CommitTarget[] {
    const last = new Map<string, EventMessage>();
    for (const message of slice) last.set(partitionSlot(message.topic, message.partition), message);
    const targets = [...last.values()].map((message) => ({
      topic: message.topic,
      partition: message.partition,
      offset: message.offset + 1n,
      leaderEpoch: message.leaderEpoch,
    }));
    pendingCommits.add(targets);
    return targets;
  }

  /** Resolves once no rejoin is in progress (or after the session timeout, or on close). */
  async function rejoined(): Promise<void> {
    if (consumer.isActive()) return;
    try {
      await once(consumer, 'consumer:group:join', { signal: AbortSignal.any([stop.signal, AbortSignal.timeout(rejoinWaitMs)]) });
    } catch (error) {
      // Still not a member (the broker is away) or closing: the commit below reports what it can.
      log.debug({ err: error }, 'no rejoin ended before the commit');
    }
  }

  /** Commits the targets left after the rejoins since the hand-over (those of partitions still held). */
  async function commit(targets: CommitTarget[]): Promise<void> {
    try {
      await rejoined();
      if (targets.length === 0) return; // every partition of the slice moved: its new owner reads them
      // The same array: a rejoin inside the client's retry prunes it before the retried commit.
      await consumer.commit({ offsets: targets });
    } catch (error) {
      // The partition moved on or the broker went away: whoever reads it next gets the slice again.
      log.warn(
        { err: error, offsets: targets.map((entry) => `${entry.topic}#${entry.partition}@${entry.offset}`) },
        'could not commit a handled slice; it may be delivered again',
      );
    } finally {
      pendingCommits.delete(targets);
    }
  }

  /**
   * Hands slices to the handler, up to `batchesInFlight` at once, and commits each one once it and
   * every slice before it were handled: a commit never passes a slice still in the handler or
   * waiting for its redelivery. Ends when closing (after the slices in hand) or when a redelivery was
   * cut short by close (that slice and the ones after it stay uncommitted and come again).
   */
  async function run(): Promise<void> {
    const inHand = new Set<Promise<boolean>>();
    let previous: Promise<boolean> = Promise.resolve(true);
    for (;;) {
      while (inHand.size >= batchesInFlight) await Promise.race(inHand);
      const slice = await nextSlice();
      if (slice === undefined) break;
      const events = slice.map(decode).filter((event): event is EventEnvelope => event !== undefined);
      const handled = events.length > 0 ? handleWithRedelivery(events, slice[0]!) : Promise.resolve(true);
      const targets = commitTargets(slice);
      const earlier = previous;
      const settled = (async () => {
        const [earlierCommitted, done] = await Promise.all([earlier, handled]);
        if (!earlierCommitted || !done) {
          pendingCommits.delete(targets);
          return false;
        }
        await commit(targets);
        return true;
      })();
      previous = settled;
      inHand.add(settled);
      void settled.then(() => inHand.delete(settled));
    }
    await previous;
  }

  try {
    await openStream();
  } catch (error) {
    await consumer.close(true).catch((closeError: unknown) => log.debug({ err: closeError }, 'consumer close after failed subscribe'));
    throw toBusError(error, 'subscribe', `could not join consumer group ${groupId}`);
  }
  const running = run().catch((error: unknown) => log.error({ err: error }, 'event consumer loop failed; this subscription no longer consumes'));

  /** True when the group's committed offset has reached `targets` on every partition. */
  async function isCaughtUp(targets: ReadonlyMap<string, readonly bigint[]>): Promise<boolean> {
    const committed = await consumer.listCommittedOffsets({
      topics: topicNames.map((topic) => ({ topic, partitions: (targets.get(topic) ?? []).map((_, partition) => partition) })),
    });
    for (const [topic, highs] of targets) {
      const reached = committed.get(topic) ?? [];
      for (const [partition, high] of highs.entries()) {
        const offset = reached[partition] ?? -1n;
        if ((offset < 0n ? 0n : offset) < high) return false;
      }
    }
    return true;
  }

  async function caughtUp(): Promise<void> {
    await options.published();
    let targets: ReadonlyMap<string, readonly bigint[]> | undefined;
    for (;;) {
      try {
        targets ??= await consumer.listOffsets({ topics: topicNames });
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
        // Ends the waits (arrivals, a redelivery backoff, a restart backoff), not a running handler:
        // the slices in hand finish and commit before the member leaves.
        stop.abort();
        signal();
        await running;
        try {
          await stream?.close();
          await consumer.close(true);
        } catch (error) {
          throw toBusError(error, 'unsubscribe');
        }
      })();
      return closed;
    },
  };
}
