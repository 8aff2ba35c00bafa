import type { EventEnvelope, Topic } from './event-envelope.js';

/**
 * Moves events from the API to the workers. At-least-once: a handler that throws gets the same
 * events again, so every consumer effect must be idempotent by event id.
 *
 * @remarks No ordering across topics and no exactly-once delivery: consumers de-duplicate.
 * Publishing never waits on a broker round trip; adapters buffer (and spool to disk when the
 * broker is down) and only reject when they cannot keep the event at all. The embedded bus, whose
 * buffer is the process's memory, makes a publisher wait past its bound for the slowest consumer to
 * make room.
 */
export interface EventBus {
  /**
   * Accepts events for delivery. Resolves once the events are durably accepted by the adapter
   * (buffered, spooled or sent), never after a consumer handled them. Each event goes to
   * `topicOf[event.type]`, keyed by `partitionKeyOf(event)`.
   * @throws SwitchyardError `SY_BUS_UNAVAILABLE` when the event cannot be kept (spool full; the
   *   embedded bus full for longer than its publishers wait).
   * @throws SwitchyardError `SY_EVENT_INVALID` when an event fails its schema.
   */
  publish(events: readonly EventEnvelope[]): Promise<void>;

  /**
   * Joins consumer group `group` on `topics`. Each group sees every event once (at least);
   * members of one group share the partitions. The handler gets batches in partition order;
   * the batch is committed after the handler resolves and redelivered when it throws.
   */
  subscribe(options: SubscribeOptions): Promise<Subscription>;

  /** Current delivery health for /health/diagnostics and metrics. */
  health(): BusHealth;

  /** Flushes buffered events (to the broker or the spool), stops consumers, releases connections. */
  close(): Promise<void>;
}

export interface SubscribeOptions {
  readonly group: string;
  readonly topics: readonly Topic[];
  /** Largest batch handed to the handler at once. */
  readonly maxBatchSize?: number;
  /**
   * How long a batch smaller than `maxBatchSize` may wait for more events before delivery, in ms
   * (the time bound of a batching consumer; 0 delivers at once).
   */
  readonly lingerMs?: number;
  /**
   * How many batches may be in the handler at once (default 1), so a handler that waits on I/O (the
   * analytics sink's insert) prepares the next batch meanwhile. Commits still follow delivery order:
   * after a crash, delivery resumes at the earliest batch not yet handled. But a batch may be handled
   * while an earlier one waits for its redelivery, so raise it only for handlers indifferent to the
   * order across batches. An adapter may hand over fewer (the embedded bus: one per partition).
   */
  readonly batchesInFlight?: number;
  readonly handler: (batch: readonly EventEnvelope[]) => Promise<void>;
}

export interface Subscription {
  /**
   * Resolves once every event published to the subscribed topics before the call has been
   * handled and committed by this group. Tests and benchmarks await this instead of sleeping.
   */
  caughtUp(): Promise<void>;
  /** Finishes the batch in hand, commits it and leaves the group. */
  close(): Promise<void>;
}

export interface BusHealth {
  readonly connected: boolean;
  /** Events waiting in the local spool because the broker was unreachable. */
  readonly spooled: number;
  /**
   * True when the bus reached its bound: the spool (Kafka) refuses new events; the embedded bus makes
   * publishers wait for room, then refuses (never a silent drop).
   */
  readonly spoolFull: boolean;
  /** Events refused because the spool or the embedded bus was full (each one also failed its publish call). */
  readonly refused: number;
  readonly published: number;
  /**
   * Events held in this process's memory until every consumer group has committed them: the
   * embedded bus's backlog (a consumer falling behind shows here first). Kafka: 0, the broker holds them.
   */
  readonly retained: number;
}
