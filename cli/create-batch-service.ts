import type { Config } from '../src/config/load-config.js';
import { providerQueueLimits } from '../src/generation/batch/batch-limits.js';
import type { BatchModels } from '../src/generation/batch/batch-models.js';
import { BatchService } from '../src/generation/batch/batch-service.js';
import type { ProviderName } from '../src/generation/provider-name.js';
import type { Logger } from '../src/logging/logger.js';
import type { JobQueue } from '../src/ports/job-queue.js';
import type { StateStore } from '../src/ports/state-store.js';
import type { Clock } from '../src/time/clock.js';
import * as generationWorker from '../workers/generation.js';
import type { WorkerHandle } from '../workers/worker-handle.js';

export interface BatchWiring {
  readonly state: StateStore;
  readonly jobs: JobQueue;
  /** The process's toolkit (`NeuroLink`). */
  readonly models: BatchModels & { getAvailableProviders(): Promise<ProviderName[]> };
  readonly clock: Clock;
  readonly logger: Logger;
}

/** The batch service of a process, with the `BATCH_*` settings (used by the API, the CLI and the worker). */
export function createBatchService(config: Config, wiring: BatchWiring): BatchService {
  return new BatchService({
    store: wiring.state.batches,
    queue: wiring.jobs,
    models: wiring.models,
    settings: {
      maxPrompts: config.batchMaxPrompts,
      attempts: config.batchAttempts,
      backoffMs: config.batchBackoffMs,
      retentionDays: config.batchRetentionDays,
    },
    clock: wiring.clock,
    logger: wiring.logger.child({ component: 'batches' }),
  });
}

/**
 * Starts the generation worker over the providers the toolkit has credentials for, with the
 * per-provider limits of `BATCH_CONCURRENCY`, `BATCH_RATE_PER_MINUTE` and `BATCH_PROVIDER_LIMITS`
 * (a bad value fails here, at start, naming the variable).
 */
export async function startGenerationWorker(config: Config, wiring: BatchWiring, batches: BatchService): Promise<WorkerHandle> {
  const limits = providerQueueLimits(config);
  return generationWorker.start({
    jobs: wiring.jobs,
    store: wiring.state.batches,
    models: wiring.models,
    batches,
    providers: await wiring.models.getAvailableProviders(),
    limits,
    clock: wiring.clock,
    logger: wiring.logger,
  });
}
