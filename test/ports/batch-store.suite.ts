import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BatchRecord, ItemOutcome } from '../../src/ports/state/batch-store.js';
import type { BatchStore } from '../../src/ports/state-store.js';

/** One BatchStore under test (the `batches` store of a StateStore), on a namespace of its own. */
export interface BatchStoreFixture {
  readonly store: BatchStore;
  dispose(): Promise<void>;
}

const dayS = 86_400;

function record(total: number, overrides: Partial<BatchRecord> = {}): BatchRecord {
  return {
    batchId: randomUUID(),
    merchantId: 'shop-1',
    createdAt: 1_700_000_000_000,
    total,
    options: { provider: 'openai', model: 'gpt-4o-mini', temperature: 0.2, timeoutMs: 30_000 },
    maxAttempts: 3,
    ...overrides,
  };
}

const prompts = (n: number): string[] => Array.from({ length: n }, (_, index) => `prompt number ${index}`);

function succeeded(content: string): ItemOutcome {
  return {
    status: 'succeeded',
    content,
    provider: 'openai',
    model: 'gpt-4o-mini',
    usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 },
    finishReason: 'stop',
    responseTimeMs: 12,
    attempts: 1,
    finishedAt: 1_700_000_001_000,
  };
}

const failed: ItemOutcome = {
  status: 'failed',
  error: { errorClass: 'InvalidRequestError', code: 'INVALID_REQUEST', message: 'bad temperature', retryable: false, statusCode: 400 },
  attempts: 1,
  finishedAt: 1_700_000_002_000,
};

/** The BatchStore contract (src/ports/state-store.ts), run against the memory and Redis adapters. */
export function batchStoreSuite(name: string, open: () => Promise<BatchStoreFixture>): void {
  describe(`BatchStore contract (${name})`, () => {
    let fixture: BatchStoreFixture;
    let store: BatchStore;

    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
    });

    afterEach(async () => {
      await fixture.dispose();
    });

    it('stores a batch with its prompts once, and refuses a second batch under the same id', async () => {
      const batch = record(3);
      expect(await store.create(batch, prompts(3), dayS)).toBe('created');
      expect(await store.create({ ...batch, merchantId: 'intruder' }, ['other'], dayS)).toBe('exists');
      expect(await store.get(batch.batchId)).toEqual({ record: batch, counts: { succeeded: 0, failed: 0, cancelled: 0 }, cancelledAt: undefined });
      expect(await store.item(batch.batchId, 2)).toEqual({ index: 2, prompt: 'prompt number 2', outcome: undefined });
      expect(await store.get(randomUUID())).toBeUndefined();
    });

    it('pages items in index order and stops at the end', async () => {
      const batch = record(5);
      await store.create(batch, prompts(5), dayS);
      expect((await store.items(batch.batchId, 1, 3)).map((item) => [item.index, item.prompt])).toEqual([
        [1, 'prompt number 1'],
        [2, 'prompt number 2'],
        [3, 'prompt number 3'],
      ]);
      expect((await store.items(batch.batchId, 4, 10)).map((item) => item.index)).toEqual([4]);
      expect(await store.items(batch.batchId, 5, 10)).toEqual([]);
      expect(await store.items(randomUUID(), 0, 10)).toEqual([]);
      expect(await store.item(batch.batchId, 5)).toBeUndefined();
    });

    it('records the first outcome of an item and counts it once', async () => {
      const batch = record(3);
      await store.create(batch, prompts(3), dayS);
      expect(await store.finishItem(batch.batchId, 0, succeeded('first answer'))).toBe('recorded');
      expect(await store.finishItem(batch.batchId, 0, succeeded('second answer'))).toBe('already-finished');
      expect(await store.finishItem(batch.batchId, 1, failed)).toBe('recorded');
      expect((await store.item(batch.batchId, 0))?.outcome).toEqual(succeeded('first answer'));
      expect((await store.item(batch.batchId, 1))?.outcome).toEqual(failed);
      expect((await store.get(batch.batchId))?.counts).toEqual({ succeeded: 1, failed: 1, cancelled: 0 });
      expect(await store.pendingIndexes(batch.batchId)).toEqual([2]);
    });

    it('records exactly one of many concurrent outcomes for one item', async () => {
      const batch = record(1);
      await store.create(batch, prompts(1), dayS);
      const results = await Promise.all(Array.from({ length: 20 }, (_, n) => store.finishItem(batch.batchId, 0, succeeded(`answer ${n}`))));
      expect(results.filter((result) => result === 'recorded')).toHaveLength(1);
      expect((await store.get(batch.batchId))?.counts.succeeded).toBe(1);
    });

    it('refuses outcomes for an unknown batch or an index outside it', async () => {
      const batch = record(2);
      await store.create(batch, prompts(2), dayS);
      expect(await store.finishItem(batch.batchId, 2, failed)).toBe('missing');
      expect(await store.finishItem(batch.batchId, -1, failed)).toBe('missing');
      expect(await store.finishItem(randomUUID(), 0, failed)).toBe('missing');
      expect((await store.get(batch.batchId))?.counts).toEqual({ succeeded: 0, failed: 0, cancelled: 0 });
    });

    it('keeps the first cancel time and reports later cancels and unknown batches', async () => {
      const batch = record(2);
      await store.create(batch, prompts(2), dayS);
      expect(await store.cancel(batch.batchId, 1_700_000_005_000)).toBe('cancelled');
      expect(await store.cancel(batch.batchId, 1_700_000_009_000)).toBe('already-cancelled');
      expect((await store.get(batch.batchId))?.cancelledAt).toBe(1_700_000_005_000);
      expect(await store.cancel(randomUUID(), 1)).toBe('missing');
      expect(await store.finishItem(batch.batchId, 1, { status: 'cancelled', finishedAt: 1_700_000_005_000 })).toBe('recorded');
      expect((await store.get(batch.batchId))?.counts).toEqual({ succeeded: 0, failed: 0, cancelled: 1 });
    });

    it('lists a batch as unfinished until every item has an outcome', async () => {
      const batch = record(2);
      const other = record(1);
      await store.create(batch, prompts(2), dayS);
      await store.create(other, prompts(1), dayS);
      expect(await store.unfinished()).toEqual(expect.arrayContaining([batch.batchId, other.batchId]));
      await store.finishItem(batch.batchId, 0, succeeded('a'));
      await store.finishItem(batch.batchId, 1, failed);
      const listed = await store.unfinished();
      expect(listed).not.toContain(batch.batchId);
      expect(listed).toContain(other.batchId);
    });

    it('records an OpenAI batch finalization once and lists such batches per merchant, newest first', async () => {
      const merchantId = `shop-${randomUUID()}`;
      const openAi = { endpoint: '/v1/chat/completions', inputFileId: 'file-in', completionWindow: '24h', expiresAtMs: 1_700_086_400_000 };
      const older = record(1, { merchantId, createdAt: 1_700_000_000_000, openAi });
      const newer = record(1, { merchantId, createdAt: 1_700_000_001_000, openAi: { ...openAi, metadata: { job: 'nightly' } } });
      const plain = record(1, { merchantId });
      for (const batch of [older, newer, plain]) await store.create(batch, prompts(1), dayS);
      expect(await store.openAiBatchesOf(merchantId)).toEqual([newer.batchId, older.batchId]);
      expect(await store.openAiBatchesOf(`other-${randomUUID()}`)).toEqual([]);
      expect((await store.get(newer.batchId))?.record.openAi).toEqual(newer.openAi);

      expect((await store.get(older.batchId))?.finalization).toBeUndefined();
      const first = { atMs: 1_700_000_002_000, outputFileId: 'file-out', errorFileId: 'file-err' };
      expect(await store.finalize(older.batchId, first)).toBe('recorded');
      expect(await store.finalize(older.batchId, { atMs: 1_700_000_003_000, expired: true })).toBe('already-finalized');
      expect((await store.get(older.batchId))?.finalization).toEqual(first);
      expect(await store.finalize(randomUUID(), first)).toBe('missing');
    });
  });
}
