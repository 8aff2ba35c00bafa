import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { Logger } from '../../logging/logger.js';
import type { CancelOutcome, JobConsumer, JobProcessor, JobQueue, JobSpec, JobState, QueueLimits, RetryPolicy, ScheduleSpec } from '../../ports/job-queue.js';
import { captureJobTraceContext, processInJobTrace, type JobTraceContext } from '../telemetry/job-trace-context.js';

export interface MemoryJobQueueOptions {
  readonly logger: Logger;
  /** How long finished jobs are remembered (their ids stay taken). Default 24 h, as the BullMQ adapter. */
  readonly retentionMs?: number;
  /** Wall-clock milliseconds (retention and rate windows). */
  readonly now?: () => number;
}

interface Entry {
  readonly id: string;
  readonly data: unknown;
  readonly retry: RetryPolicy;
  /** The tick, on jobs a schedule produced. */
  readonly scheduledAt: number | undefined;
  /** The trace context it was enqueued under (its deliveries run in spans of that trace). */
  readonly trace: JobTraceContext | undefined;
  state: JobState;
  /** Failed attempts so far. */
  attemptsMade: number;
  finishedAt: number | undefined;
  timer: NodeJS.Timeout | undefined;
}

interface Consumer {
  readonly processor: JobProcessor<unknown>;
  readonly limits: QueueLimits;
  running: number;
  closing: boolean;
  /** Resolved when `running` drops to 0 after close. */
  drained: (() => void) | undefined;
}

interface QueueState {
  readonly jobs: Map<string, Entry>;
  /** Ids ready to run, oldest first. */
  readonly waiting: string[];
  readonly consumers: Consumer[];
  /** Next consumer to offer a job (round robin, so consumers share the work). */
  cursor: number;
  /** Fixed rate window: starts counted since `windowStart`. */
  windowStart: number;
  windowStarts: number;
  windowTimer: NodeJS.Timeout | undefined;
}

const defaultRetentionMs = 24 * 3_600_000;

function queueClosed(): SwitchyardError {
  return new SwitchyardError('SY_QUEUE_UNAVAILABLE', { message: 'job queue is closed' });
}

/**
 * The embedded JobQueue: the same contract as the BullMQ adapter inside one process. Jobs live in
 * memory only; what must survive a restart (batch items and their outcomes) is kept by the domain
 * in the StateStore, which re-enqueues unfinished work when its worker starts.
 */
export function createMemoryJobQueue(options: MemoryJobQueueOptions): JobQueue {
  const log = options.logger.child({ component: 'job-queue' });
  const retentionMs = options.retentionMs ?? defaultRetentionMs;
  const now = options.now ?? (() => Date.now());
  const queues = new Map<string, QueueState>();
  let closed = false;
  /** Repeating jobs by `<queue>\u0000<id>`: their timer and the job of their last tick. */
  const schedules = new Map<string, { timer: NodeJS.Timeout; lastJobId: string | undefined }>();

  function queueOf(name: string): QueueState {
    let queue = queues.get(name);
    if (queue === undefined) {
      queue = { jobs: new Map(), waiting: [], consumers: [], cursor: 0, windowStart: 0, windowStarts: 0, windowTimer: undefined };
      queues.set(name, queue);
    }
    return queue;
  }

  /** Forgets finished jobs older than the retention (their ids become free again). */
  function sweep(queue: QueueState): void {
    const cutoff = now() - retentionMs;
    for (const [id, entry] of queue.jobs) if (entry.finishedAt !== undefined && entry.finishedAt <= cutoff) queue.jobs.delete(id);
  }

  /** The shared rate limit: true when one more start fits the window (and counts it). */
  function takeRateSlot(name: string, queue: QueueState, limit: QueueLimits['rateLimit']): boolean {
    if (limit === undefined) return true;
    const at = now();
    if (at - queue.windowStart >= limit.durationMs) {
      queue.windowStart = at;
      queue.windowStarts = 0;
    }
    if (queue.windowStarts < limit.max) {
      queue.windowStarts += 1;
      return true;
    }
    if (queue.windowTimer === undefined) {
      queue.windowTimer = setTimeout(
        () => {
          queue.windowTimer = undefined;
          dispatch(name);
        },
        queue.windowStart + limit.durationMs - at,
      );
    }
    return false;
  }

  function nextConsumer(queue: QueueState): Consumer | undefined {
    for (let step = 0; step < queue.consumers.length; step++) {
      const index = (queue.cursor + step) % queue.consumers.length;
      const consumer = queue.consumers[index]!;
      if (!consumer.closing && consumer.running < consumer.limits.concurrency) {
        queue.cursor = index + 1;
        return consumer;
      }
    }
    return undefined;
  }

  function dispatch(name: string): void {
    const queue = queues.get(name);
    if (queue === undefined || closed) return;
    while (queue.waiting.length > 0) {
      const consumer = nextConsumer(queue);
      if (consumer === undefined) return;
      if (!takeRateSlot(name, queue, consumer.limits.rateLimit)) return;
      const entry = queue.jobs.get(queue.waiting.shift()!);
      if (entry === undefined || entry.state !== 'waiting') continue;
      void run(name, queue, consumer, entry);
    }
  }

  async function run(name: string, queue: QueueState, consumer: Consumer, entry: Entry): Promise<void> {
    entry.state = 'active';
    consumer.running += 1;
    try {
      const attempt = entry.attemptsMade + 1;
      await processInJobTrace(entry.trace, { system: 'in-process', queue: name, jobId: entry.id, attempt }, () =>
        consumer.processor({
          id: entry.id,
          data: entry.data,
          attempt,
          maxAttempts: entry.retry.attempts,
          ...(entry.scheduledAt !== undefined ? { scheduledAt: entry.scheduledAt } : {}),
        }),
      );
      entry.state = 'completed';
      entry.finishedAt = now();
    } catch (error) {
      entry.attemptsMade += 1;
      if (entry.attemptsMade >= entry.retry.attempts || closed) {
        entry.state = 'failed';
        entry.finishedAt = now();
        log.warn({ err: error, queue: name, jobId: entry.id, attempts: entry.attemptsMade }, 'job failed after its last attempt');
      } else {
        entry.state = 'delayed';
        const delayMs = entry.retry.backoffMs * 2 ** (entry.attemptsMade - 1);
        log.debug({ err: error, queue: name, jobId: entry.id, attempt: entry.attemptsMade, delayMs }, 'job attempt failed; retrying');
        entry.timer = setTimeout(() => {
          entry.timer = undefined;
          if (entry.state !== 'delayed') return;
          entry.state = 'waiting';
          queue.waiting.push(entry.id);
          dispatch(name);
        }, delayMs);
      }
    } finally {
      consumer.running -= 1;
      if (consumer.closing && consumer.running === 0) consumer.drained?.();
      dispatch(name);
    }
  }

  async function closeConsumer(name: string, consumer: Consumer): Promise<void> {
    if (consumer.closing) return;
    consumer.closing = true;
    if (consumer.running > 0) await new Promise<void>((resolve) => (consumer.drained = resolve));
    const queue = queues.get(name);
    if (queue !== undefined) queue.consumers.splice(queue.consumers.indexOf(consumer), 1);
  }

  const consumers: { name: string; consumer: Consumer }[] = [];

  /**
   * One tick of a schedule: a job `<id>@<tick>` joins the queue unless the previous tick's job is
   * still waiting or running (runs of a schedule never overlap; the tick is skipped).
   */
  function tick(name: string, spec: ScheduleSpec, data: unknown): void {
    const schedule = schedules.get(`${name}\u0000${spec.id}`);
    if (schedule === undefined || closed) return;
    const queue = queueOf(name);
    const last = schedule.lastJobId === undefined ? undefined : queue.jobs.get(schedule.lastJobId);
    if (last !== undefined && last.state !== 'completed' && last.state !== 'failed') {
      log.debug({ queue: name, schedule: spec.id }, 'previous run still going; tick skipped');
      return;
    }
    sweep(queue);
    const at = now();
    const id = `${spec.id}@${at}`;
    schedule.lastJobId = id;
    queue.jobs.set(id, {
      id,
      data,
      retry: { attempts: 1, backoffMs: 0 },
      scheduledAt: at,
      trace: undefined,
      state: 'waiting',
      attemptsMade: 0,
      finishedAt: undefined,
      timer: undefined,
    });
    queue.waiting.push(id);
    dispatch(name);
  }

  return {
    async enqueue(name, jobs, retry) {
      if (closed) throw queueClosed();
      const queue = queueOf(name);
      sweep(queue);
      const trace = captureJobTraceContext();
      for (const job of jobs as readonly JobSpec<unknown>[]) {
        if (queue.jobs.has(job.id)) continue;
        // A copy through JSON: what BullMQ would store, so both adapters hand processors the same values.
        queue.jobs.set(job.id, {
          id: job.id,
          data: JSON.parse(JSON.stringify(job.data)) as unknown,
          retry,
          scheduledAt: undefined,
          trace,
          state: 'waiting',
          attemptsMade: 0,
          finishedAt: undefined,
          timer: undefined,
        });
        queue.waiting.push(job.id);
      }
      dispatch(name);
    },

    async process<T>(name: string, processor: JobProcessor<T>, limits: QueueLimits): Promise<JobConsumer> {
      if (closed) throw queueClosed();
      const consumer: Consumer = { processor: processor as JobProcessor<unknown>, limits, running: 0, closing: false, drained: undefined };
      queueOf(name).consumers.push(consumer);
      consumers.push({ name, consumer });
      dispatch(name);
      return { close: () => closeConsumer(name, consumer) };
    },

    async state(name, id) {
      const queue = queues.get(name);
      if (queue === undefined) return undefined;
      sweep(queue);
      return queue.jobs.get(id)?.state;
    },

    async cancel(name, id): Promise<CancelOutcome> {
      const queue = queues.get(name);
      const entry = queue?.jobs.get(id);
      if (queue === undefined || entry === undefined) return 'unknown';
      if (entry.state === 'active') return 'active';
      if (entry.state === 'completed' || entry.state === 'failed') return 'finished';
      clearTimeout(entry.timer);
      queue.jobs.delete(id);
      const at = queue.waiting.indexOf(id);
      if (at !== -1) queue.waiting.splice(at, 1);
      return 'cancelled';
    },

    async schedule<T>(name: string, spec: ScheduleSpec, data: T) {
      if (closed) throw queueClosed();
      const key = `${name}\u0000${spec.id}`;
      const existing = schedules.get(key);
      if (existing !== undefined) clearInterval(existing.timer);
      const copy = JSON.parse(JSON.stringify(data)) as unknown;
      const timer = setInterval(() => tick(name, spec, copy), spec.everyMs);
      // A timer of its own must not keep a process alive that has nothing else to do.
      timer.unref();
      schedules.set(key, { timer, lastJobId: existing?.lastJobId });
    },

    async unschedule(name, id) {
      const key = `${name}\u0000${id}`;
      const existing = schedules.get(key);
      if (existing === undefined) return false;
      clearInterval(existing.timer);
      schedules.delete(key);
      return true;
    },

    async close() {
      for (const schedule of schedules.values()) clearInterval(schedule.timer);
      schedules.clear();
      await Promise.all(consumers.map(({ name, consumer }) => closeConsumer(name, consumer)));
      closed = true;
      for (const queue of queues.values()) {
        clearTimeout(queue.windowTimer);
        for (const entry of queue.jobs.values()) clearTimeout(entry.timer);
      }
    },
  };
}
