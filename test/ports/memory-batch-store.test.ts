import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryStateStore } from '../../src/adapters/memory/memory-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { createManualClock } from '../../src/time/clock.js';
import { batchStoreSuite } from './batch-store.suite.js';

batchStoreSuite('memory', async () => {
  const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger });
  return { store: state.batches, dispose: () => state.close() };
});

describe('memory batch store persistence', () => {
  it('keeps batches, prompts and outcomes across a reopen, until the batch expires', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sy-batches-'));
    const clock = createManualClock(1_700_000_000_000);
    const first = createMemoryStateStore({ dataDir: dir, logger: silentLogger, clock });
    const record = {
      batchId: 'b-1',
      merchantId: 'm1',
      createdAt: clock.now(),
      total: 2,
      options: { provider: 'openai' as const, timeoutMs: 1000 },
      maxAttempts: 2,
    };
    await first.batches.create(record, ['one', 'two'], 3600);
    await first.batches.finishItem('b-1', 1, { status: 'cancelled', finishedAt: clock.now() });
    await first.close();

    const second = createMemoryStateStore({ dataDir: dir, logger: silentLogger, clock });
    expect(await second.batches.get('b-1')).toEqual({ record, counts: { succeeded: 0, failed: 0, cancelled: 1 }, cancelledAt: undefined });
    expect(await second.batches.pendingIndexes('b-1')).toEqual([0]);
    expect(await second.batches.unfinished()).toEqual(['b-1']);
    clock.advance(3_601_000);
    expect(await second.batches.get('b-1')).toBeUndefined();
    expect(await second.batches.item('b-1', 1)).toBeUndefined();
    expect(await second.batches.unfinished()).toEqual([]);
    await second.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
