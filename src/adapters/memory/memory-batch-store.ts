import type { BatchCounts, BatchFinalization, BatchItem, BatchRecord, ItemOutcome } from '../../ports/state/batch-store.js';
import type { BatchStore } from '../../ports/state-store.js';
import type { JournaledTables } from './journaled-tables.js';

/** The journaled tables this store writes (memory-state-store.ts lists them as durable). */
export const batchTables = ['batches', 'batchPrompts', 'batchProgress', 'batchResults'] as const;

interface Progress extends BatchCounts {
  readonly cancelledAt: number | undefined;
  readonly finalization?: BatchFinalization;
  /** Epoch ms when everything of the batch expires (results written later expire with it). */
  readonly expiresAt: number;
}

const resultKey = (batchId: string, index: number): string => `${batchId}\u0000${index}`;

/**
 * The embedded BatchStore over the state store's journaled tables: a batch, its prompts (one
 * array, one journal line), its progress and one entry per outcome. Every method runs without an
 * await between its reads and writes, so it is atomic in the one process that owns the store.
 */
export function createMemoryBatchStore(db: JournaledTables, now: () => number): BatchStore {
  const ttlLeft = (progress: Progress): number => Math.max(1, progress.expiresAt - now());

  function item(batchId: string, index: number): BatchItem | undefined {
    const prompts = db.get<string[]>('batchPrompts', batchId);
    const prompt = prompts?.[index];
    if (prompt === undefined) return undefined;
    return { index, prompt, outcome: db.get<ItemOutcome>('batchResults', resultKey(batchId, index)) };
  }

  return {
    async create(record, prompts, ttlSeconds) {
      if (db.has('batches', record.batchId)) return 'exists';
      const ttlMs = ttlSeconds * 1000;
      db.set('batches', record.batchId, record, ttlMs);
      db.set('batchPrompts', record.batchId, [...prompts], ttlMs);
      const progress: Progress = { succeeded: 0, failed: 0, cancelled: 0, cancelledAt: undefined, expiresAt: now() + ttlMs };
      db.set('batchProgress', record.batchId, progress, ttlMs);
      return 'created';
    },

    async get(batchId) {
      const record = db.get<BatchRecord>('batches', batchId);
      const progress = db.get<Progress>('batchProgress', batchId);
      if (record === undefined || progress === undefined) return undefined;
      return {
        record,
        counts: { succeeded: progress.succeeded, failed: progress.failed, cancelled: progress.cancelled },
        cancelledAt: progress.cancelledAt,
        ...(progress.finalization !== undefined ? { finalization: progress.finalization } : {}),
      };
    },

    async item(batchId, index) {
      return item(batchId, index);
    },

    async items(batchId, offset, limit) {
      const total = db.get<string[]>('batchPrompts', batchId)?.length ?? 0;
      const out: BatchItem[] = [];
      for (let index = offset; index < Math.min(total, offset + limit); index++) out.push(item(batchId, index)!);
      return out;
    },

    async pendingIndexes(batchId) {
      const total = db.get<string[]>('batchPrompts', batchId)?.length ?? 0;
      const out: number[] = [];
      for (let index = 0; index < total; index++) if (!db.has('batchResults', resultKey(batchId, index))) out.push(index);
      return out;
    },

    async finishItem(batchId, index, outcome) {
      const progress = db.get<Progress>('batchProgress', batchId);
      const total = db.get<BatchRecord>('batches', batchId)?.total;
      if (progress === undefined || total === undefined || !Number.isInteger(index) || index < 0 || index >= total) return 'missing';
      const key = resultKey(batchId, index);
      if (db.has('batchResults', key)) return 'already-finished';
      db.set('batchResults', key, outcome, ttlLeft(progress));
      db.set('batchProgress', batchId, { ...progress, [outcome.status]: progress[outcome.status] + 1 }, ttlLeft(progress));
      return 'recorded';
    },

    async cancel(batchId, atMs) {
      const progress = db.get<Progress>('batchProgress', batchId);
      if (progress === undefined) return 'missing';
      if (progress.cancelledAt !== undefined) return 'already-cancelled';
      db.set('batchProgress', batchId, { ...progress, cancelledAt: atMs }, ttlLeft(progress));
      return 'cancelled';
    },

    async finalize(batchId, finalization) {
      const progress = db.get<Progress>('batchProgress', batchId);
      if (progress === undefined) return 'missing';
      if (progress.finalization !== undefined) return 'already-finalized';
      db.set('batchProgress', batchId, { ...progress, finalization }, ttlLeft(progress));
      return 'recorded';
    },

    async openAiBatchesOf(merchantId) {
      const mine: BatchRecord[] = [];
      for (const [, record] of db.entries<BatchRecord>('batches')) if (record.merchantId === merchantId && record.openAi !== undefined) mine.push(record);
      return mine.sort((a, b) => b.createdAt - a.createdAt || (a.batchId < b.batchId ? 1 : -1)).map((record) => record.batchId);
    },

    async unfinished() {
      const out: string[] = [];
      for (const [batchId, record] of db.entries<BatchRecord>('batches')) {
        const progress = db.get<Progress>('batchProgress', batchId);
        if (progress !== undefined && progress.succeeded + progress.failed + progress.cancelled < record.total) out.push(batchId);
      }
      return out;
    },
  };
}
