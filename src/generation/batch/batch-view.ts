import type { BatchSnapshot, BatchStatus, BatchItem, ItemFailure, ItemStatus, ItemUsage } from './batch-record.js';
import { batchStatusOf, pendingOf } from './batch-record.js';
import { batchJobId } from './batch-queue.js';

/** A batch's progress as the routes and the CLI show it (schemas/http/batches/batch.json). */
export interface BatchView {
  readonly batchId: string;
  readonly status: BatchStatus;
  readonly merchantId: string;
  readonly provider: string;
  readonly model?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly cancelledAt?: string;
  readonly total: number;
  readonly pending: number;
  readonly succeeded: number;
  /** Items in the dead letter (see their `error`). */
  readonly failed: number;
  readonly cancelled: number;
}

/** One item of a results page (schemas/http/batches/batch-results.json). */
export interface BatchItemView {
  readonly index: number;
  readonly jobId: string;
  readonly status: ItemStatus;
  readonly prompt: string;
  readonly content?: string;
  readonly provider?: string;
  readonly model?: string;
  readonly usage?: ItemUsage;
  readonly finishReason?: string;
  readonly responseTimeMs?: number;
  /** The dead letter: why the item failed for good. */
  readonly error?: ItemFailure;
  readonly attempts?: number;
  readonly finishedAt?: string;
}

export interface BatchResultsPage {
  readonly batchId: string;
  readonly status: BatchStatus;
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
  readonly items: readonly BatchItemView[];
  /** Where the next page starts; absent on the last page. */
  readonly nextOffset?: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();

export function toBatchView(snapshot: BatchSnapshot): BatchView {
  const { record, counts, cancelledAt } = snapshot;
  return {
    batchId: record.batchId,
    status: batchStatusOf(snapshot),
    merchantId: record.merchantId,
    provider: record.options.provider,
    ...(record.options.model !== undefined ? { model: record.options.model } : {}),
    createdAt: iso(record.createdAt),
    ...(cancelledAt !== undefined ? { cancelledAt: iso(cancelledAt) } : {}),
    total: record.total,
    pending: pendingOf(snapshot),
    succeeded: counts.succeeded,
    failed: counts.failed,
    cancelled: counts.cancelled,
  };
}

export function toBatchItemView(batchId: string, item: BatchItem): BatchItemView {
  const base = { index: item.index, jobId: batchJobId(batchId, item.index), prompt: item.prompt };
  const outcome = item.outcome;
  if (outcome === undefined) return { ...base, status: 'pending' };
  switch (outcome.status) {
    case 'succeeded':
      return {
        ...base,
        status: 'succeeded',
        content: outcome.content,
        provider: outcome.provider,
        model: outcome.model,
        usage: outcome.usage,
        ...(outcome.finishReason !== undefined ? { finishReason: outcome.finishReason } : {}),
        responseTimeMs: outcome.responseTimeMs,
        attempts: outcome.attempts,
        finishedAt: iso(outcome.finishedAt),
      };
    case 'failed':
      return { ...base, status: 'failed', error: outcome.error, attempts: outcome.attempts, finishedAt: iso(outcome.finishedAt) };
    case 'cancelled':
      return { ...base, status: 'cancelled', finishedAt: iso(outcome.finishedAt) };
  }
}
