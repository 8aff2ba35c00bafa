import { randomUUID } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import type { RedisOptions } from 'ioredis';
import { createRedisClient } from '../redis/redis-connection.js';
import { describeTarget, type RedisConnectionSecurity } from '../redis/redis-target.js';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { Logger } from '../../logging/logger.js';
import type {
  CancelOutcome,
  JobConsumer,
  JobProcessor,
  JobQueue,
  JobSpec,
  JobState,
  QueuedJob,
  QueueLimits,
  RetryPolicy,
  ScheduleSpec,
} from '../../ports/job-queue.js';
import { processInJobTrace, type JobTraceContext } from '../telemetry/job-trace-context.js';
import { envelopesUnderCurrentTrace, openEnvelope, type JobEnvelope } from './job-envelope.js';

export interface BullMqJobQueueOptions {
  /** `redis://[user:password@]host:port[/db]` */
  readonly url: string;
  /**
   * Seed nodes (`host:port`) of a Redis Cluster: BullMQ then runs on ioredis' cluster client and its
   * keys go under the hash tag `{<keyPrefix>bull}:<queue>:…` (BullMQ's scripts touch many keys of a
   * queue at once, which a cluster allows only within one slot).
   */
  readonly clusterNodes?: readonly string[] | undefined;
  /** Credentials and TLS over the URL's (REDIS_USERNAME, REDIS_PASSWORD, REDIS_TLS_*_FILE): every connection gets them. */
  readonly security?: RedisConnectionSecurity | undefined;
  /** The state store's key prefix; BullMQ keys go under `<keyPrefix>bull:<queue>:…`. */
  readonly keyPrefix: string;
  readonly logger: Logger;
  /**
   * How long a running job's lock outlives a silent worker, in ms: a worker killed mid-job has its
   * job handed to another worker after about this long (BullMQ's lock duration and stall check).
   */
  readonly lockMs: number;
  /** How long finished jobs (and so their ids) are remembered. Default 24 h. */
  readonly retentionSeconds?: number;
}

const defaultRetentionSeconds = 24 * 3600;
/**
 * A job whose worker died this many times while running it is failed by BullMQ without another
 * processor call (a poison job that crashes its process). The domain notices such a job through
 * `state()` (see the batch service's resume).
 */
const maxStalledCount = 3;

/*
 * BullMQ refuses custom ids that contain ':' (unless shaped like its own repeat ids) or that read
 * as an integer, and our ids (`<batchId>:<index>`) contain ':'. Ids are therefore encoded one to
 * one: '%' and ':' are percent-escaped and a 'j' prefix keeps every id non-numeric.
 */
function encodeId(id: string): string {
  return `j${id.replaceAll('%', '%25').replaceAll(':', '%3A')}`;
}

function decodeId(encoded: string): string {
  return encoded.slice(1).replaceAll('%3A', ':').replaceAll('%25', '%');
}

/**
 * BullMQ's key prefix: `<keyPrefix>bull` on one server (unchanged since the first release), and the
 * hash tag `{<keyPrefix>bull}` on a cluster so that every key of every queue shares one slot.
 */
export function bullPrefix(keyPrefix: string, cluster: boolean): string {
  return cluster ? `{${keyPrefix}bull}` : `${keyPrefix}bull`;
}

function unavailable(error: unknown, operation: string): SwitchyardError {
  if (SwitchyardError.isInstance(error)) return error;
  return new SwitchyardError('SY_QUEUE_UNAVAILABLE', { cause: error, isRetryable: true, details: { operation } });
}

/** Renews a schedule's run lock while its holder still owns it (KEYS[1] lock, ARGV[1] token, ARGV[2] ms). */
const renewRunLockScript = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
/** Releases a schedule's run lock when its holder still owns it (KEYS[1] lock, ARGV[1] token). */
const releaseRunLockScript = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/** What a delivery tells the processor; a job a scheduler produced names its tick (`<id>@<tick ms>`). */
function deliveryOf<T>(job: Job, data: T): QueuedJob<T> {
  const attempt = { data, attempt: job.attemptsMade + 1, maxAttempts: job.opts.attempts ?? 1 };
  if (job.repeatJobKey === undefined) return { id: decodeId(job.id ?? ''), ...attempt };
  // Scheduler job ids are `repeat:<scheduler id>:<tick ms>`.
  const tick = Number((job.id ?? '').slice((job.id ?? '').lastIndexOf(':') + 1));
  const scheduledAt = Number.isFinite(tick) && tick > 0 ? tick : job.timestamp;
  return { id: `${decodeId(job.repeatJobKey)}@${scheduledAt}`, ...attempt, scheduledAt };
}

/** One delivery inside the `process {queue}` span of the trace it was enqueued under. */
function withinJobTrace(trace: JobTraceContext | undefined, queue: string, delivery: QueuedJob<unknown>, run: () => Promise<void>): Promise<void> {
  return processInJobTrace(trace, { system: 'bullmq', queue, jobId: delivery.id, attempt: delivery.attempt }, run);
}

const bullStates: Readonly<Record<string, JobState>> = {
  waiting: 'waiting',
  prioritized: 'waiting',
  'waiting-children': 'waiting',
  delayed: 'delayed',
  active: 'active',
  completed: 'completed',
  failed: 'failed',
};

/**
 * The distributed JobQueue on BullMQ: one BullMQ queue per queue name, workers in any number of
 * processes. Connects before resolving, so a wrong URL fails at start with SY_QUEUE_UNAVAILABLE.
 *
 * Two connections are opened here: a producer connection that fails fast while Redis is down
 * (enqueue answers SY_QUEUE_UNAVAILABLE instead of hanging a request), and a worker connection
 * that waits for Redis to come back (BullMQ requires that of workers); BullMQ adds one blocking
 * connection per consumer.
 */
export async function createBullMqJobQueue(options: BullMqJobQueueOptions): Promise<JobQueue> {
  const log = options.logger.child({ component: 'job-queue' });
  const onCluster = options.clusterNodes !== undefined && options.clusterNodes.length > 0;
  const prefix = bullPrefix(options.keyPrefix, onCluster);
  const retention = { age: options.retentionSeconds ?? defaultRetentionSeconds };
  const base: RedisOptions = { lazyConnect: true, retryStrategy: (attempt: number) => Math.min(50 * 2 ** Math.min(attempt, 6), 2000) };
  const producer = createRedisClient(options, { ...base, connectionName: 'switchyard-queue', enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  const workerConnection = createRedisClient(options, { ...base, connectionName: 'switchyard-queue-worker', maxRetriesPerRequest: null });
  producer.on('error', (error: unknown) => log.debug({ err: error }, 'job queue connection error'));
  workerConnection.on('error', (error: unknown) => log.debug({ err: error }, 'job queue worker connection error'));
  // connect() rejects with a bare "Connection is closed."; the reason (a refused certificate or password) comes as an 'error' event.
  let reason: unknown;
  const remember = (error: unknown): void => {
    reason = error;
  };
  producer.on('error', remember);
  try {
    await Promise.all([producer.connect(), workerConnection.connect()]);
  } catch (error) {
    producer.disconnect();
    workerConnection.disconnect();
    throw new SwitchyardError('SY_QUEUE_UNAVAILABLE', {
      message: `job queue unreachable at ${describeTarget(options)}`,
      cause: reason ?? error,
      isRetryable: true,
      details: { url: describeTarget(options) },
    });
  } finally {
    producer.off('error', remember);
  }

  const queues = new Map<string, Queue>();
  const workers = new Set<Worker>();

  function queueOf(name: string): Queue {
    let queue = queues.get(name);
    if (queue === undefined) {
      queue = new Queue(name, { connection: producer, prefix, skipWaitingForReady: true });
      queue.on('error', (error: unknown) => log.debug({ err: error, queue: name }, 'job queue error'));
      queues.set(name, queue);
    }
    return queue;
  }

  /**
   * Runs one tick of a schedule under its run lock (SET NX PX, renewed while the run lasts, released
   * after): the queue hands each tick to one worker, and the lock keeps a tick from starting while
   * the previous one still runs elsewhere (a run longer than the interval, or a stalled job handed
   * on). A tick that finds the lock taken is skipped. A holder that dies stops renewing; its lock
   * expires after `lockMs`, when BullMQ also hands its job on.
   */
  async function runScheduled<T>(name: string, schedulerKey: string, delivery: QueuedJob<T>, processor: JobProcessor<T>): Promise<void> {
    const lockKey = `${prefix}:${name}:schedule-run:${schedulerKey}`;
    const token = randomUUID();
    const taken = await producer.set(lockKey, token, 'PX', options.lockMs, 'NX');
    if (taken !== 'OK') {
      log.debug({ queue: name, schedule: schedulerKey, jobId: delivery.id }, 'previous run still going; tick skipped');
      return;
    }
    const renew = setInterval(
      () =>
        void producer
          .eval(renewRunLockScript, 1, lockKey, token, options.lockMs)
          .catch((error: unknown) => log.warn({ err: error }, 'run lock renewal failed')),
      Math.max(1, Math.floor(options.lockMs / 3)),
    );
    try {
      await processor(delivery);
    } finally {
      clearInterval(renew);
      await producer.eval(releaseRunLockScript, 1, lockKey, token).catch((error: unknown) => log.warn({ err: error }, 'run lock release failed'));
    }
  }

  return {
    async schedule<T>(name: string, spec: ScheduleSpec, data: T) {
      try {
        await queueOf(name).upsertJobScheduler(
          encodeId(spec.id),
          { every: spec.everyMs },
          // No trace context: each tick starts a trace of its own.
          { name, data: { data } satisfies JobEnvelope<T>, opts: { attempts: 1, removeOnComplete: retention, removeOnFail: retention } },
        );
      } catch (error) {
        throw unavailable(error, 'schedule');
      }
    },

    async unschedule(name, id) {
      try {
        return await queueOf(name).removeJobScheduler(encodeId(id));
      } catch (error) {
        throw unavailable(error, 'unschedule');
      }
    },

    async enqueue<T>(name: string, jobs: readonly JobSpec<T>[], retry: RetryPolicy) {
      if (jobs.length === 0) return;
      try {
        // An id BullMQ already holds is left as it is (its add script returns the existing job).
        const envelope = envelopesUnderCurrentTrace<T>();
        await queueOf(name).addBulk(
          jobs.map((job) => ({
            name,
            data: envelope(job.data),
            opts: {
              jobId: encodeId(job.id),
              attempts: retry.attempts,
              backoff: { type: 'exponential', delay: retry.backoffMs },
              removeOnComplete: retention,
              removeOnFail: retention,
            },
          })),
        );
      } catch (error) {
        throw unavailable(error, 'enqueue');
      }
    },

    async process<T>(name: string, processor: JobProcessor<T>, limits: QueueLimits): Promise<JobConsumer> {
      const worker = new Worker(
        name,
        async (job: Job) => {
          const { data, trace } = openEnvelope(job.data);
          const delivery = deliveryOf(job, data as T);
          const traced: JobProcessor<T> = (run) => withinJobTrace(trace, name, run, () => processor(run));
          if (job.repeatJobKey === undefined) await traced(delivery);
          else await runScheduled(name, job.repeatJobKey, delivery, traced);
        },
        {
          connection: workerConnection,
          prefix,
          concurrency: limits.concurrency,
          ...(limits.rateLimit !== undefined ? { limiter: { max: limits.rateLimit.max, duration: limits.rateLimit.durationMs } } : {}),
          lockDuration: options.lockMs,
          stalledInterval: options.lockMs,
          maxStalledCount,
        },
      );
      worker.on('error', (error: unknown) => log.warn({ err: error, queue: name }, 'job queue worker error'));
      worker.on('failed', (job: Job | undefined, error: Error) => {
        const attempts = job?.attemptsMade ?? 0;
        const final = job !== undefined && attempts >= (job.opts.attempts ?? 1);
        if (final) log.warn({ err: error, queue: name, jobId: decodeId(job.id ?? ''), attempts }, 'job failed after its last attempt');
        else log.debug({ err: error, queue: name, jobId: job === undefined ? undefined : decodeId(job.id ?? ''), attempts }, 'job attempt failed; retrying');
      });
      await worker.waitUntilReady();
      workers.add(worker);
      return {
        async close() {
          workers.delete(worker);
          await worker.close();
        },
      };
    },

    async state(name, id) {
      try {
        const state = await queueOf(name).getJobState(encodeId(id));
        return bullStates[state];
      } catch (error) {
        throw unavailable(error, 'state');
      }
    },

    async cancel(name, id): Promise<CancelOutcome> {
      try {
        const queue = queueOf(name);
        const state = bullStates[await queue.getJobState(encodeId(id))];
        if (state === undefined) return 'unknown';
        if (state === 'active') return 'active';
        if (state === 'completed' || state === 'failed') return 'finished';
        // 0: a worker locked it between the two calls; it runs to its end.
        return (await queue.remove(encodeId(id))) === 1 ? 'cancelled' : 'active';
      } catch (error) {
        throw unavailable(error, 'cancel');
      }
    },

    async close() {
      await Promise.all([...workers].map((worker) => worker.close()));
      workers.clear();
      await Promise.all([...queues.values()].map((queue) => queue.close()));
      queues.clear();
      await Promise.all(
        [producer, workerConnection].map(async (client) => {
          if (client.status === 'ready') {
            await client.quit().catch((error: unknown) => {
              log.warn({ err: error }, 'job queue connection did not quit cleanly; disconnecting');
              client.disconnect();
            });
          } else client.disconnect();
        }),
      );
    },
  };
}
