import { setTimeout as pause } from 'node:timers/promises';
import { gatewayBatchQueue } from '../src/generation/batch/batch-queue.js';
import type { GatewayLineRunner } from '../src/generation/batch/gateway-line.js';
import type { OpenAiBatchService } from '../src/generation/batch/openai-batch-service.js';
import { createGatewayLineProcessor } from '../src/generation/batch/process-gateway-line.js';
import type { Logger } from '../src/logging/logger.js';
import type { JobQueue, QueueLimits } from '../src/ports/job-queue.js';
import type { BatchStore } from '../src/ports/state-store.js';
import type { Clock } from '../src/time/clock.js';
import type { WorkerHandle } from './worker-handle.js';

export interface GatewayLinesWorkerDeps {
  readonly jobs: JobQueue;
  readonly store: BatchStore;
  /** The gateway of this process (api/gateway-line-runner.ts). */
  readonly lines: GatewayLineRunner;
  readonly batches: Pick<OpenAiBatchService, 'finalizeIfDone'>;
  readonly limits: QueueLimits;
  readonly clock: Clock;
  readonly logger: Logger;
}

export const gatewayLinesWorkerName = 'gateway-lines';

/** How often `caughtUp()` looks at the store (tests and benchmarks only). */
const caughtUpPollMs = 100;

/**
 * The worker of OpenAI batch lines (`POST /v1/batches`): consumes the gateway lines' queue and runs
 * each line through this process's gateway. It runs where the gateway runs, in the API process
 * (cli/start-service.ts), embedded on the in-process queue or distributed on BullMQ, where every
 * API replica shares the queue. Resuming lost lines is the generation worker's resume, which
 * covers every batch.
 */
export async function start(deps: GatewayLinesWorkerDeps): Promise<WorkerHandle> {
  const log = deps.logger.child({ worker: gatewayLinesWorkerName });
  const processor = createGatewayLineProcessor({ store: deps.store, lines: deps.lines, batches: deps.batches, clock: deps.clock, logger: log });
  const consumer = await deps.jobs.process(gatewayBatchQueue, processor, deps.limits);
  log.info({}, 'worker started');
  let closed = false;
  return {
    name: gatewayLinesWorkerName,
    /** Resolves once no batch has pending items (polls the store: job outcomes are not events). */
    async caughtUp() {
      while (!closed && (await deps.store.unfinished()).length > 0) await pause(caughtUpPollMs);
    },
    async close() {
      closed = true;
      await consumer.close();
    },
  };
}
