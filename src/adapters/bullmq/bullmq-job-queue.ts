import { Queue, Worker, type Job } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { Logger } from '../../logging/logger.js';
import type { CancelOutcome, JobConsumer, JobProcessor, JobQueue, JobSpec, JobState, QueueLimits, RetryPolicy } from '../../ports/job-queue.js';

export interface BullMqJobQueueOptions {
  /** `redis://[user:password@]host:port[/db]` */
  readonly url: string;
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

function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return '(unparseable url)';
  }
}

function unavailable(error: unknown, operation: string): SwitchyardError {
  if (SwitchyardError.isInstance(error)) return error;
  return new SwitchyardError('SY_QUEUE_UNAVAILABLE', { cause: error, isRetryable: true, details: { operation } });
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
  const prefix = `${options.keyPrefix}bull`;
  const retention = { age: options.retentionSeconds ?? defaultRetentionSeconds };
  const base: RedisOptions = { lazyConnect: true, retryStrategy: (attempt: number) => Math.min(50 * 2 ** Math.min(attempt, 6), 2000) };
  const producer = new Redis(options.url, { ...base, connectionName: 'switchyard-queue', enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  const workerConnection = new Redis(options.url, { ...base, connectionName: 'switchyard-queue-worker', maxRetriesPerRequest: null });
  producer.on('error', (error: unknown) => log.debug({ err: error }, 'job queue connection error'));
  workerConnection.on('error', (error: unknown) => log.debug({ err: error }, 'job queue worker connection error'));
  try {
    await Promise.all([producer.connect(), workerConnection.connect()]);
  } catch (error) {
    producer.disconnect();
    workerConnection.disconnect();
    throw new SwitchyardError('SY_QUEUE_UNAVAILABLE', {
      message: `job queue unreachable at ${describeUrl(options.url)}`,
      cause: error,
      isRetryable: true,
      details: { url: describeUrl(options.url) },
    });
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

  return {
    async enqueue<T>(name: string, jobs: readonly JobSpec<T>[], retry: RetryPolicy) {
      if (jobs.length === 0) return;
      try {
        // An id BullMQ already holds is left as it is (its add script returns the existing job).
        await queueOf(name).addBulk(
          jobs.map((job) => ({
            name,
            data: job.data,
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
      const worker = new Worker<T>(
        name,
        async (job: Job<T>) => {
          await processor({ id: decodeId(job.id ?? ''), data: job.data, attempt: job.attemptsMade + 1, maxAttempts: job.opts.attempts ?? 1 });
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
      worker.on('failed', (job: Job<T> | undefined, error: Error) => {
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
