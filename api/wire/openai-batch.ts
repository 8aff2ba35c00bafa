import type { OpenAiBatch } from '../../src/generated/schema-types.js';
import type { BatchSnapshot } from '../../src/ports/state/batch-store.js';
import { openAiBatchStatusOf } from '../../src/generation/batch/openai-batch-status.js';

const seconds = (ms: number): number => Math.floor(ms / 1000);

/** OpenAI's Batch object (`object: "batch"`) of a stored OpenAI batch; timestamps in epoch seconds, null until reached. */
export function openAiBatchObject(snapshot: BatchSnapshot): OpenAiBatch {
  const { record, counts, cancelledAt, finalization } = snapshot;
  const spec = record.openAi!;
  const status = openAiBatchStatusOf(snapshot);
  const endedAt = finalization !== undefined ? seconds(finalization.atMs) : null;
  return {
    id: record.batchId,
    object: 'batch',
    endpoint: spec.endpoint,
    errors: null,
    input_file_id: spec.inputFileId,
    completion_window: spec.completionWindow,
    status,
    output_file_id: finalization?.outputFileId ?? null,
    error_file_id: finalization?.errorFileId ?? null,
    created_at: seconds(record.createdAt),
    // The input is validated while the create request runs: a stored batch is in progress at once.
    in_progress_at: seconds(record.createdAt),
    expires_at: seconds(spec.expiresAtMs),
    finalizing_at: endedAt,
    completed_at: status === 'completed' ? endedAt : null,
    failed_at: null,
    expired_at: status === 'expired' ? endedAt : null,
    cancelling_at: cancelledAt !== undefined && status !== 'expired' ? seconds(cancelledAt) : null,
    cancelled_at: status === 'cancelled' ? endedAt : null,
    request_counts: { total: record.total, completed: counts.succeeded, failed: counts.failed },
    metadata: spec.metadata !== undefined ? { ...spec.metadata } : null,
  };
}
