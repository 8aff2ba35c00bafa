import { compatibilityPartitioner, ProduceAcks, Producer, stringSerializers, type MessageToProduce } from '@platformatic/kafka';
import { partitionKeyOf, topicOf, topics, type EventEnvelope, type Topic } from '../../events/event-envelope.js';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { Logger } from '../../logging/logger.js';
import type { DiskSpool } from './disk-spool.js';
import type { KafkaConnection } from './kafka-connection.js';
import { captureTraceContext, traceHeadersOf } from '../telemetry/event-trace-context.js';

export interface KafkaPublisherOptions {
  readonly connection: KafkaConnection;
  readonly topicName: (topic: Topic) => string;
  readonly spool: DiskSpool;
  readonly spoolMaxEvents: number;
  readonly lingerMs: number;
  readonly maxBatchEvents: number;
  readonly brokers: readonly string[];
  readonly logger: Logger;
  /** Longest accept() waits for its events to be acknowledged or spooled (default 1000 ms). */
  readonly durableWaitMs?: number;
  /**
   * Longest settle() (the first step of close()) gives a spooling publisher to reconnect and replay
   * its spool (default 5000 ms); past it the spool stays on disk for the next start.
   */
  readonly closeReconnectWaitMs?: number;
  /** The reconnect loop's backoff while spooling: first delay, doubling up to max (default 250 ms → 5 s). */
  readonly reconnectDelayMs?: { readonly first: number; readonly max: number };
}

export interface PublisherHealth {
  readonly connected: boolean;
  readonly spooled: number;
  readonly spoolFull: boolean;
  /** Events acknowledged by the broker (acks=all). */
  readonly published: number;
  /** Events refused because the spool was full (publish rejected with SY_BUS_UNAVAILABLE). */
  readonly refused: number;
}

export interface KafkaPublisher {
  start(): Promise<void>;
  /**
   * Takes events into the batch; throws SY_BUS_UNAVAILABLE when the spool cannot take them. The
   * promise resolves once they are acknowledged by the broker or written to the disk spool, so a
   * caller that answers after it loses nothing it answered for when its process is killed; it
   * never rejects, and resolves anyway after `durableWaitMs` (a broker that hangs instead of
   * refusing: the answer is not held longer, and the events stay in memory until sent or spooled).
   */
  accept(events: readonly EventEnvelope[]): Promise<void>;
  /** Sends (or spools) everything accepted so far. */
  flush(): Promise<void>;
  /** Resolves once every event accepted before the call has been acknowledged by the broker. */
  delivered(): Promise<void>;
  health(): PublisherHealth;
  /**
   * The first step of closing: flushes, and when the publisher is spooling, retries the broker at
   * once (its backoff cut short) and waits up to `closeReconnectWaitMs` for the spool to be replayed,
   * so the events a closing process spooled during a blip reach the broker (and its subscribers can
   * drain them) instead of waiting for the next start. Resolves either way; later calls share it.
   */
  settle(): Promise<void>;
  /** Settles, then flushes to the broker or the spool, stops the replay loop and disconnects the producer. */
  close(): Promise<void>;
}

/** 250 ms first retry after an outage, doubling to 5 s: quick recovery, no hammering of a dead broker. */
const defaultReconnectDelayMs = { first: 250, max: 5000 } as const;
/** The retry delay while close() waits for a reconnect (bounded by `closeReconnectWaitMs`). */
const closingReconnectDelayMs = 250;
/** 1 s between attempts to rewrite events the spool could not store (a full or failing disk). */
const spoolRetryDelayMs = 1000;
const defaultDurableWaitMs = 1000;
const defaultCloseReconnectWaitMs = 5000;

type StringMessage = MessageToProduce<string, string, string, string>;
type StringProducer = Producer<string, string, string, string>;

function toMessages(events: readonly EventEnvelope[], topicName: (topic: Topic) => string): StringMessage[] {
  return events.map((event) => {
    const headers = traceHeadersOf(event);
    return {
      topic: topicName(topicOf[event.type]),
      key: partitionKeyOf(event),
      value: JSON.stringify(event),
      ...(headers !== undefined ? { headers: { ...headers } } : {}),
    };
  });
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/**
 * The producing half of the Kafka bus. Accepting never waits on the broker: events join a batch that
 * a linger timer (or the batch size) sends with an idempotent, acks=all producer. Sends and spool
 * writes run one at a time in acceptance order, so order per partition key survives an outage:
 *
 * - a failed send moves the bus to spooling: that batch and every later one is appended to the disk
 *   spool until a reconnect loop (backoff 250 ms → 5 s) has replayed the spool, oldest first;
 * - only then, inside the same ordered queue, does sending go direct again.
 *
 * @remarks While connected, the in-memory batch is not bounded by `spoolMaxEvents`; a broker that
 * accepts slowly shows up as latency, not refusals. A replay cut short (close, crash) resends its
 * file from the start next time: duplicates are allowed (consumers de-duplicate by event id).
 */
export function createKafkaPublisher(options: KafkaPublisherOptions): KafkaPublisher {
  const { spool, logger: log } = options;
  let producer: StringProducer | undefined;
  let producerReady: Promise<unknown> | undefined;
  let mode: 'direct' | 'spooling' = 'direct';
  let buffer: EventEnvelope[] = [];
  let pending = 0; // accepted, neither acknowledged nor on disk yet
  let queue: Promise<void> = Promise.resolve();
  let lingerTimer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let acceptedCount = 0;
  let deliveredCount = 0;
  /** Accepted events acknowledged by the broker or on the spool (writes run in acceptance order). */
  let writtenCount = 0;
  const durableWaiters: { target: number; resolve: () => void }[] = [];
  let published = 0;
  let refused = 0;
  let spoolFull = false;
  let closed = false;
  let reconnecting: Promise<void> | undefined;
  let settling: Promise<void> | undefined;
  /** Cuts the reconnect loop's current backoff short (set while it waits). */
  let cutBackoff: (() => void) | undefined;
  const recoveryWaiters: (() => void)[] = [];
  const stop = new AbortController();
  const waiters: { target: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  const replayProgress = new Map<string, number>();

  function inOrder<T>(step: () => Promise<T>): Promise<T> {
    const result = queue.then(step);
    queue = result.then(
      () => undefined,
      (error: unknown) => log.error({ err: error }, 'event bus queue step failed'),
    );
    return result;
  }

  function settle(count: number): void {
    deliveredCount += count;
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i]!;
      if (waiter.target <= deliveredCount) {
        waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }

  function written(count: number): void {
    writtenCount += count;
    for (let i = durableWaiters.length - 1; i >= 0; i--) {
      if (durableWaiters[i]!.target <= writtenCount) durableWaiters.splice(i, 1)[0]!.resolve();
    }
  }

  function durable(target: number): Promise<void> {
    if (writtenCount >= target) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.durableWaitMs ?? defaultDurableWaitMs);
      durableWaiters.push({
        target,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  async function connectedProducer(): Promise<StringProducer> {
    producer ??= new Producer({
      ...options.connection,
      idempotent: true, // acks=all and one request in flight, so retried requests keep their order
      acks: ProduceAcks.ALL,
      autocreateTopics: false,
      // The Java client's (and kafkajs's) key hashing: a key keeps its partition across clients.
      partitioner: compatibilityPartitioner,
      serializers: stringSerializers,
      // Fail a send within about a second when the broker is gone, so events reach the spool quickly.
      retries: 3,
      retryDelay: 100,
    });
    const current = producer;
    // The client connects lazily; asking for the topics' metadata proves the broker answers.
    producerReady ??= current.metadata({ topics: [...new Set(topics.map(options.topicName))] });
    try {
      await producerReady;
    } catch (error) {
      producerReady = undefined;
      throw error;
    }
    return current;
  }

  /** An idempotent producer's sequence state is not trusted after a failed send: start a fresh one. */
  async function discardProducer(): Promise<void> {
    const old = producer;
    producer = undefined;
    producerReady = undefined;
    if (old === undefined) return;
    try {
      await old.close(true);
    } catch (error) {
      log.debug({ err: error }, 'discarded producer did not close cleanly');
    }
  }

  async function send(events: readonly EventEnvelope[]): Promise<void> {
    const current = await connectedProducer();
    await current.send({ messages: toMessages(events, options.topicName) });
    published += events.length;
  }

  function enterSpooling(cause: unknown): void {
    if (mode === 'spooling') return;
    mode = 'spooling';
    log.error({ err: cause, brokers: options.brokers }, 'event bus unavailable; spooling events to disk');
    startReconnecting();
  }

  async function writeBatch(batch: readonly EventEnvelope[]): Promise<void> {
    const chunks = chunk(batch, options.maxBatchEvents);
    for (let index = 0; index < chunks.length; index++) {
      const events = chunks[index]!;
      if (mode === 'direct') {
        try {
          await send(events);
          pending -= events.length;
          written(events.length);
          settle(events.length);
          continue;
        } catch (error) {
          enterSpooling(error);
        }
      }
      try {
        await spool.append(events);
        pending -= events.length;
        written(events.length);
      } catch (error) {
        // Never dropped: the events go back to the front of the batch and are written again later.
        const unwritten = chunks.slice(index).flat();
        buffer = [...unwritten, ...buffer];
        log.error({ err: error, events: unwritten.length }, 'event spool write failed; events kept in memory');
        retryTimer ??= setTimeout(() => {
          retryTimer = undefined;
          void flush();
        }, spoolRetryDelayMs);
        return;
      }
    }
  }

  function flush(): Promise<void> {
    if (lingerTimer !== undefined) {
      clearTimeout(lingerTimer);
      lingerTimer = undefined;
    }
    if (buffer.length === 0) return queue;
    const batch = buffer;
    buffer = [];
    return inOrder(() => writeBatch(batch));
  }

  async function replaySpool(): Promise<void> {
    while (!stop.signal.aborted) {
      const file = await spool.takeOldest();
      if (file === undefined) return;
      let offset = replayProgress.get(file.name) ?? 0;
      while (offset < file.events.length) {
        if (stop.signal.aborted) return;
        const events = file.events.slice(offset, offset + options.maxBatchEvents);
        await send(events);
        offset += events.length;
        replayProgress.set(file.name, offset);
        settle(events.length);
      }
      settle(file.lineCount - file.events.length); // unreadable lines were counted as accepted
      await spool.remove(file);
      replayProgress.delete(file.name);
    }
  }

  /** Waits `ms`, or less when stopped or cut short by settle(). */
  function backoff(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        stop.signal.removeEventListener('abort', done);
        cutBackoff = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      stop.signal.addEventListener('abort', done, { once: true });
      cutBackoff = done;
    });
  }

  async function reconnectLoop(): Promise<void> {
    const { first: firstReconnectDelayMs, max: maxReconnectDelayMs } = options.reconnectDelayMs ?? defaultReconnectDelayMs;
    let delayMs = firstReconnectDelayMs;
    await discardProducer();
    while (!stop.signal.aborted) {
      try {
        await replaySpool();
        if (stop.signal.aborted) return;
        // Switching back happens in the ordered queue, so no batch can slip between the last
        // spooled event and the first direct send.
        const recovered = await inOrder(async () => {
          if (spool.count > 0) return false;
          mode = 'direct';
          return true;
        });
        if (recovered) {
          spoolFull = false;
          log.info({ brokers: options.brokers }, 'event bus recovered; spool replayed');
          for (const resolve of recoveryWaiters.splice(0)) resolve();
          return;
        }
        delayMs = firstReconnectDelayMs;
      } catch (error) {
        if (stop.signal.aborted) return;
        log.warn({ err: error, retryInMs: delayMs, spooled: spool.count }, 'event bus still unavailable');
        await discardProducer();
        // While closing, retry at the first delay: close() waits on this loop for a bounded time.
        await backoff(settling !== undefined ? Math.min(delayMs, closingReconnectDelayMs) : delayMs);
        if (stop.signal.aborted) return;
        delayMs = Math.min(delayMs * 2, maxReconnectDelayMs);
      }
    }
  }

  function startReconnecting(): void {
    if (reconnecting !== undefined || stop.signal.aborted) return;
    reconnecting = reconnectLoop()
      .catch((error: unknown) => log.error({ err: error }, 'event bus reconnect loop failed'))
      .finally(() => {
        reconnecting = undefined;
      });
  }

  /** Resolves once the reconnect loop has replayed the spool and gone direct, or after `ms`. */
  function recoveredWithin(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        const index = recoveryWaiters.indexOf(done);
        if (index >= 0) recoveryWaiters.splice(index, 1);
        resolve();
      };
      const timer = setTimeout(done, ms);
      recoveryWaiters.push(done);
    });
  }

  function settleOnce(): Promise<void> {
    settling ??= settleBeforeClose();
    return settling;
  }

  async function settleBeforeClose(): Promise<void> {
    await flush();
    await queue;
    if (mode === 'direct' || stop.signal.aborted) return;
    const waitMs = options.closeReconnectWaitMs ?? defaultCloseReconnectWaitMs;
    const recovered = recoveredWithin(waitMs);
    cutBackoff?.();
    startReconnecting(); // a loop that died on an unexpected error is started again
    await recovered;
    if (mode === 'spooling') log.warn({ spooled: spool.count, waitMs }, 'event bus did not reconnect before close; the spool stays on disk');
  }

  return {
    async start() {
      acceptedCount = spool.count; // a previous run's spool goes out before anything new
      writtenCount = spool.count;
      if (spool.count > 0) {
        mode = 'spooling';
        startReconnecting();
        return;
      }
      try {
        await connectedProducer();
      } catch (error) {
        enterSpooling(error);
      }
    },

    accept(events) {
      if (closed) throw new SwitchyardError('SY_BUS_UNAVAILABLE', { message: 'event bus is closed' });
      if (events.length === 0) return Promise.resolve();
      // The publisher's trace context, sent as record headers (spooled events keep none: the spool stores envelopes).
      captureTraceContext(events);
      if (mode === 'spooling' && spool.count + pending + events.length > options.spoolMaxEvents) {
        refused += events.length;
        if (!spoolFull) {
          spoolFull = true;
          log.error({ spooled: spool.count, pending, spoolMaxEvents: options.spoolMaxEvents, refused }, 'event spool full; refusing events');
        }
        throw new SwitchyardError('SY_BUS_UNAVAILABLE', {
          isRetryable: true,
          details: { spooled: spool.count, spoolMaxEvents: options.spoolMaxEvents },
        });
      }
      spoolFull = false;
      buffer.push(...events);
      pending += events.length;
      acceptedCount += events.length;
      if (buffer.length >= options.maxBatchEvents) void flush();
      else lingerTimer ??= setTimeout(() => void flush(), options.lingerMs);
      return durable(acceptedCount);
    },

    flush,

    delivered() {
      const target = acceptedCount;
      if (deliveredCount >= target) return Promise.resolve();
      void flush();
      return new Promise<void>((resolve, reject) => waiters.push({ target, resolve, reject }));
    },

    health: () => ({ connected: mode === 'direct' && !closed, spooled: spool.count, spoolFull, published, refused }),

    settle: settleOnce,

    async close() {
      if (closed) return;
      await settleOnce();
      if (closed) return;
      closed = true;
      await flush();
      await queue;
      stop.abort();
      if (retryTimer !== undefined) clearTimeout(retryTimer);
      await reconnecting;
      await discardProducer();
      await spool.close();
      for (const waiter of durableWaiters.splice(0)) waiter.resolve();
      for (const waiter of waiters.splice(0)) {
        waiter.reject(
          new SwitchyardError('SY_BUS_UNAVAILABLE', { message: 'event bus closed before these events reached the broker; they stay in the spool' }),
        );
      }
      if (pending > 0) log.error({ spooled: spool.count, pending }, 'event bus closed with events neither sent nor spooled');
      else if (spool.count > 0) log.warn({ spooled: spool.count }, 'event bus closed with events left in the spool; the next start replays them');
    },
  };
}
