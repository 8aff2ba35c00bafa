import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryJobQueue } from '../../../../src/adapters/memory/memory-job-queue.js';
import { createMemoryStateStore } from '../../../../src/adapters/memory/memory-state-store.js';
import type { BatchModels } from '../../../../src/generation/batch/batch-models.js';
import { BatchService } from '../../../../src/generation/batch/batch-service.js';
import { createBatchItemProcessor } from '../../../../src/generation/batch/process-batch-item.js';
import { DeprecationNotice } from '../../../../src/generation/deprecation-notice.js';
import { GenerationService } from '../../../../src/generation/generation-service.js';
import { selectProvider } from '../../../../src/generation/select-provider.js';
import { noTelemetry } from '../../../../src/generation/telemetry.js';
import { silentLogger } from '../../../../src/logging/logger.js';
import { systemClock } from '../../../../src/time/clock.js';
import * as generationWorker from '../../../../workers/generation.js';
import { ScriptedLanguageModel, scriptedCatalog } from '../../../helpers/scripted-language-model.js';
import { testSettings } from '../../../helpers/batch-harness.js';

/**
 * Embedded mode across a restart: the in-process queue dies with its process, the journaled state
 * store does not. The generation worker's resume at start enqueues what was unfinished again, and
 * only that: items answered before the restart are not called again.
 */
describe('embedded batches across a restart', () => {
  const dirs: string[] = [];

  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function processOf(dataDir: string, model: ScriptedLanguageModel) {
    const state = createMemoryStateStore({ dataDir, logger: silentLogger });
    const jobs = createMemoryJobQueue({ logger: silentLogger });
    const catalog = scriptedCatalog({ openai: model });
    const generation = new GenerationService({
      catalog,
      tools: async () => [],
      telemetry: () => noTelemetry,
      notice: new DeprecationNotice(() => undefined),
      evaluation: { timeoutMs: 1000 },
    });
    const models: BatchModels = {
      generate: (options) => generation.generate(options),
      getProviderSelection: () => selectProvider(catalog, undefined, undefined),
    };
    const batches = new BatchService({ store: state.batches, queue: jobs, models, settings: testSettings, clock: systemClock, logger: silentLogger });
    const startWorker = () =>
      generationWorker.start({
        jobs,
        store: state.batches,
        models,
        batches,
        providers: ['openai'],
        limits: () => ({ concurrency: 1 }),
        clock: systemClock,
        logger: silentLogger,
      });
    return { state, jobs, models, batches, startWorker };
  }

  it('finishes a batch after a restart, calling the provider only for the items not yet answered', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sy-embedded-batches-'));
    dirs.push(dataDir);

    const before = new ScriptedLanguageModel('openai', 'gpt-test', [{ text: 'answered before' }]);
    const first = processOf(dataDir, before);
    const { batchId } = await first.batches.submit({ merchantId: 'shop-1', prompts: ['p0', 'p1', 'p2'] });
    // One item answered, then the process stops before the worker takes the others.
    const processor = createBatchItemProcessor({ store: first.state.batches, models: first.models, clock: systemClock, logger: silentLogger });
    await processor({ id: `${batchId}:0`, data: { batchId, index: 0 }, attempt: 1, maxAttempts: 3 });
    await first.jobs.close();
    await first.state.close();

    const after = new ScriptedLanguageModel('openai', 'gpt-test', [{ text: 'answer one' }, { text: 'answer two' }]);
    const second = processOf(dataDir, after);
    const worker = await second.startWorker();
    await worker.caughtUp();
    expect(after.calls.map((call) => call.messages.at(-1)?.content)).toEqual(['p1', 'p2']);
    expect(await second.batches.status(batchId)).toMatchObject({ status: 'completed', succeeded: 3 });
    expect((await second.batches.results(batchId))?.items.map((item) => item.content)).toEqual(['answered before', 'answer one', 'answer two']);
    await worker.close();
    await second.jobs.close();
    await second.state.close();
  });
});
