/**
 * Runs background jobs (batch generation) outside the request that enqueued them.
 * In-process in embedded mode, BullMQ on Redis in distributed mode.
 *
 * @remarks Delivery is at-least-once: a processor that throws is retried (up to the job's
 * attempts, with exponential backoff), and a job whose processor dies with its process is run
 * again once its lock expires. Processors must therefore be idempotent by job id. There is no
 * "move to dead letter" operation on purpose: what a failure means (retry or give up) is the
 * domain's decision, which records its own dead letter and returns normally; a processor that
 * throws on its last attempt leaves the job `failed`.
 */
export interface JobQueue {
  /**
   * Adds jobs to a queue. A job id is unique per queue while the queue remembers it (pending, or
   * finished within the adapter's retention): enqueueing a remembered id again changes nothing,
   * and the first data stays.
   */
  enqueue<T>(queue: string, jobs: readonly JobSpec<T>[], retry: RetryPolicy): Promise<void>;

  /**
   * Starts consuming a queue in this process until the returned handle is closed. Several
   * consumers (in one or many processes) share the queue's jobs; each runs at most
   * `limits.concurrency` jobs at once, and `limits.rateLimit` caps job starts across all of them.
   */
  process<T>(queue: string, processor: JobProcessor<T>, limits: QueueLimits): Promise<JobConsumer>;

  /** Where a job is now; undefined when the queue does not know (or no longer remembers) the id. */
  state(queue: string, id: string): Promise<JobState | undefined>;

  /**
   * Removes a job that has not started (waiting or delayed). A running job is left to finish
   * ('active'); a finished or unknown one is reported as such.
   */
  cancel(queue: string, id: string): Promise<CancelOutcome>;

  /**
   * Adds (or updates) a repeating job: every `schedule.everyMs` one job carrying `data` joins
   * `queue`, and the queue's consumers ({@link JobQueue.process}) run it like any other. Calling it
   * again with the same id from any replica changes the interval or data; it never adds a second
   * schedule, so every replica may call it at start.
   *
   * Runs of one schedule never overlap, across every consumer of every instance: a tick that comes
   * while the previous run is still going is skipped (its processor is not called). Such a job's
   * {@link QueuedJob.scheduledAt} is the tick it belongs to.
   *
   * @remarks The first run comes one interval after the schedule is first added, not at once.
   * Removing a schedule is {@link JobQueue.unschedule}; closing the instance leaves it in place
   * (distributed: in Redis, for the other replicas), except in process where it dies with the queue.
   */
  schedule<T>(queue: string, schedule: ScheduleSpec, data: T): Promise<void>;

  /** Removes a repeating job; true when it existed. A run already started finishes. */
  unschedule(queue: string, id: string): Promise<boolean>;

  /** Stops every consumer of this instance (running jobs finish) and releases connections. */
  close(): Promise<void>;
}

/** A repeating job: its id (unique per queue) and its interval. */
export interface ScheduleSpec {
  readonly id: string;
  readonly everyMs: number;
}

export interface JobSpec<T> {
  readonly id: string;
  /** Plain JSON: it may cross a process boundary. */
  readonly data: T;
}

/** Attempts in all (1 = no retry); retry n waits `backoffMs · 2^(n-1)` after the failure. */
export interface RetryPolicy {
  readonly attempts: number;
  readonly backoffMs: number;
}

export interface QueueLimits {
  /** Jobs this consumer runs at once. */
  readonly concurrency: number;
  /** At most `max` job starts per `durationMs`, counted across every consumer of the queue. */
  readonly rateLimit?: { readonly max: number; readonly durationMs: number };
}

/** One delivery of a job to a processor. */
export interface QueuedJob<T> {
  readonly id: string;
  readonly data: T;
  /** 1 on the first delivery after enqueue, +1 after each failed attempt. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** Set on jobs a schedule produced: the wall-clock ms of the tick (the same for every delivery of it). */
  readonly scheduledAt?: number;
}

export type JobProcessor<T> = (job: QueuedJob<T>) => Promise<void>;

export interface JobConsumer {
  /** Stops taking jobs and waits for the running ones to finish. */
  close(): Promise<void>;
}

export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed';

export type CancelOutcome = 'cancelled' | 'active' | 'finished' | 'unknown';
