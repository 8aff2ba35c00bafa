import type { Batch, BatchItemResult, BatchResults } from '../../generated/schema-types.js';
import type { BatchItem, BatchSnapshot } from '../../ports/state/batch-store.js';
import { batchStatusOf, pendingOf } from './batch-record.js';
import { batchJobId } from './batch-queue.js';

/** A batch's progress, as the routes and the CLI show it (schemas/http/batches/batch.json). */
export type BatchView = Batch;
/** One item of a results page (schemas/http/batches/batch-item-result.json). */
export type BatchItemView = BatchItemResult;
/** One page of results (schemas/http/batches/batch-results.json). */
export type BatchResultsPage = BatchResults;

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
