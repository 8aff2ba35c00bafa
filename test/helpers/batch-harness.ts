import { createMemoryJobQueue } from '../../src/adapters/memory/memory-job-queue.js';
import { createMemoryStateStore } from '../../src/adapters/memory/memory-state-store.js';
import type { BatchModels } from '../../src/generation/batch/batch-models.js';
import { batchQueueName, type BatchItemJob } from '../../src/generation/batch/batch-queue.js';
import { BatchService, type BatchSettings } from '../../src/generation/batch/batch-service.js';
import { createBatchItemProcessor } from '../../src/generation/batch/process-batch-item.js';
import { DeprecationNotice } from '../../src/generation/deprecation-notice.js';
import { InvalidRequestError } from '../../src/generation/errors/provider-errors.js';
import type { GenerateOptions } from '../../src/generation/generate-options.js';
import { GenerationService } from '../../src/generation/generation-service.js';
import { normalizeProviderName, type ProviderName } from '../../src/generation/provider-name.js';
import { selectProvider } from '../../src/generation/select-provider.js';
import { noTelemetry } from '../../src/generation/telemetry.js';
import { silentLogger } from '../../src/logging/logger.js';
import type { JobConsumer, JobProcessor, JobQueue } from '../../src/ports/job-queue.js';
import type { StateStore } from '../../src/ports/state-store.js';
import { createManualClock } from '../../src/time/clock.js';
import { scriptedCatalog, type ScriptedLanguageModel } from './scripted-language-model.js';

export const testSettings: BatchSettings = { maxPrompts: 5, attempts: 3, backoffMs: 5, retentionDays: 1 };

/**
 * A batch service on the embedded adapters with the toolkit's real generate loop over scripted
 * models. `calls` records every generate call the processor makes (options as passed).
 */
export interface BatchHarness {
  readonly service: BatchService;
  readonly state: StateStore;
  readonly queue: JobQueue;
  readonly models: BatchModels;
  readonly calls: GenerateOptions[];
  readonly clock: ReturnType<typeof createManualClock>;
  /** Starts a worker on `provider`'s queue (concurrency 1 unless given). */
  startWorker(provider: ProviderName, concurrency?: number): Promise<JobConsumer>;
  /** Resolves once `count` generate calls have been made. */
  callsMade(count: number): Promise<void>;
  /** Resolves once the batch has no pending item, checked after every processed job. */
  settled(batchId: string): Promise<void>;
  close(): Promise<void>;
}

export function createBatchHarness(
  clients: Partial<Record<ProviderName, ScriptedLanguageModel>>,
  options: { settings?: Partial<BatchSettings>; gate?: Promise<void> } = {},
): BatchHarness {
  const clock = createManualClock(1_700_000_000_000);
  const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
  const queue = createMemoryJobQueue({ logger: silentLogger });
  const catalog = scriptedCatalog(clients);
  const generation = new GenerationService({
    catalog,
    tools: async () => [],
    telemetry: () => noTelemetry,
    notice: new DeprecationNotice(() => undefined),
    evaluation: { timeoutMs: 1000 },
  });
  const calls: GenerateOptions[] = [];
  const callWaiters: { count: number; resolve: () => void }[] = [];
  const models: BatchModels = {
    async generate(callOptions) {
      calls.push(callOptions);
      for (const waiter of callWaiters.filter((candidate) => calls.length >= candidate.count)) {
        callWaiters.splice(callWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      // The first call may be held (a running item while the test cancels).
      if (calls.length === 1 && options.gate !== undefined) await options.gate;
      return generation.generate(callOptions);
    },
    getProviderSelection(requested) {
      const name = requested === undefined ? undefined : normalizeProviderName(requested);
      if (requested !== undefined && name === undefined)
        throw new InvalidRequestError(`provider names no known provider: "${requested}"`, 'toolkit', 'provider');
      return selectProvider(catalog, name, undefined);
    },
  };
  const settings = { ...testSettings, ...options.settings };
  const service = new BatchService({ store: state.batches, queue, models, settings, clock, logger: silentLogger });
  const waiters: { batchId: string; resolve: () => void }[] = [];
  async function check(): Promise<void> {
    for (const waiter of [...waiters]) {
      const view = await service.status(waiter.batchId);
      if (view !== undefined && view.pending === 0) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }
  const inner = createBatchItemProcessor({ store: state.batches, models, clock, logger: silentLogger });
  const processor: JobProcessor<BatchItemJob> = async (job) => {
    try {
      await inner(job);
    } finally {
      await check();
    }
  };
  return {
    service,
    state,
    queue,
    models,
    calls,
    clock,
    startWorker: (provider, concurrency = 1) => queue.process(batchQueueName(provider), processor, { concurrency }),
    callsMade(count) {
      if (calls.length >= count) return Promise.resolve();
      return new Promise<void>((resolve) => callWaiters.push({ count, resolve }));
    },
    async settled(batchId) {
      const promise = new Promise<void>((resolve) => waiters.push({ batchId, resolve }));
      await check();
      return promise;
    },
    async close() {
      await queue.close();
      await state.close();
    },
  };
}
