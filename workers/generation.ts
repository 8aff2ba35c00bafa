import { setTimeout as pause } from 'node:timers/promises';
import type { BatchModels } from '../src/generation/batch/batch-models.js';
import { batchQueueName } from '../src/generation/batch/batch-queue.js';
import type { BatchService } from '../src/generation/batch/batch-service.js';
import { createBatchItemProcessor } from '../src/generation/batch/process-batch-item.js';
import type { ProviderName } from '../src/generation/provider-name.js';
import type { Logger } from '../src/logging/logger.js';
import type { JobConsumer, JobQueue, QueueLimits } from '../src/ports/job-queue.js';
import type { BatchStore } from '../src/ports/state-store.js';
import type { Clock } from '../src/time/clock.js';
import type { WorkerHandle } from './worker-handle.js';

export interface GenerationWorkerDeps {
  readonly jobs: JobQueue;
  readonly store: BatchStore;
  /** The process's toolkit (its `onCall` publishes the llm.call records). */
  readonly models: Pick<BatchModels, 'generate'>;
  /** Runs the resume at start (re-enqueues what the queue lost, dead-letters what it gave up on). */
  readonly batches: Pick<BatchService, 'resumeUnfinished'>;
  /** The providers this process has credentials for: it consumes their queues only. */
  readonly providers: readonly ProviderName[];
  readonly limits: (provider: ProviderName) => QueueLimits;
  readonly clock: Clock;
  readonly logger: Logger;
}

export const generationWorkerName = 'generation';

/** How often `caughtUp()` looks at the store (tests and benchmarks only). */
const caughtUpPollMs = 100;

/**
 * The generation worker: consumes the batch queue of every provider it has credentials for, each
 * under that provider's concurrency and rate limit, and runs the items through the toolkit. In
 * embedded mode it runs inside the API process on the in-process queue; in distributed mode it is
 * `switchyard worker generation` on BullMQ, scaled by running more (jobs are shared, rate limits
 * hold across all of them). At start it resumes unfinished batches.
 */
export async function start(deps: GenerationWorkerDeps): Promise<WorkerHandle> {
  const log = deps.logger.child({ worker: generationWorkerName });
  const processor = createBatchItemProcessor({ store: deps.store, models: deps.models, clock: deps.clock, logger: log });
  const consumers: JobConsumer[] = [];
  for (const provider of deps.providers) consumers.push(await deps.jobs.process(batchQueueName(provider), processor, deps.limits(provider)));
  if (deps.providers.length === 0) log.info({}, 'generation worker serves no provider: no provider credentials are configured');
  try {
    await deps.batches.resumeUnfinished();
  } catch (error) {
    // The queues are consumed anyway; the next start (of any worker) resumes again.
    log.error({ err: error }, 'resuming unfinished batches failed');
  }
  log.info({ providers: deps.providers }, 'worker started');
  let closed = false;
  return {
    name: generationWorkerName,
    /** Resolves once no batch has pending items (polls the store: job outcomes are not events). */
    async caughtUp() {
      while (!closed && (await deps.store.unfinished()).length > 0) await pause(caughtUpPollMs);
    },
    async close() {
      closed = true;
      await Promise.all(consumers.map((consumer) => consumer.close()));
    },
  };
}
