import type { BatchSnapshot } from '../../ports/state/batch-store.js';
import { pendingOf } from './batch-record.js';

/** An OpenAI batch's status (`validating` and `failed` are never reached here: the input is checked at create). */
export type OpenAiBatchStatus = 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';

/**
 * OpenAI's status of a stored batch: in_progress while lines run; finalizing once every line has
 * ended and the output files are not yet recorded; then completed, cancelled (cancelled before
 * the end) or expired (its window ran out first). A cancelled batch whose running lines have not
 * finished is cancelling.
 */
export function openAiBatchStatusOf(snapshot: BatchSnapshot): OpenAiBatchStatus {
  const { finalization, cancelledAt } = snapshot;
  if (finalization !== undefined) {
    if (finalization.expired === true) return 'expired';
    return cancelledAt !== undefined ? 'cancelled' : 'completed';
  }
  if (pendingOf(snapshot) === 0) return cancelledAt !== undefined ? 'cancelling' : 'finalizing';
  return cancelledAt !== undefined ? 'cancelling' : 'in_progress';
}
