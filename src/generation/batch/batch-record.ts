import type { BatchSnapshot } from '../../ports/state/batch-store.js';

/*
 * What a batch's stored progress means. The records themselves (BatchRecord, BatchSnapshot,
 * ItemOutcome, …) are the batch store's and live in src/ports/state/batch-store.ts.
 */

/**
 * - running: items are still pending;
 * - completed: every item ended (succeeded or in the dead letter);
 * - cancelling: cancelled while items were running; they finish, nothing new starts;
 * - cancelled: cancelled, and every item has ended.
 */
export type BatchStatus = 'running' | 'completed' | 'cancelling' | 'cancelled';

export function pendingOf(snapshot: BatchSnapshot): number {
  const { succeeded, failed, cancelled } = snapshot.counts;
  return snapshot.record.total - succeeded - failed - cancelled;
}

export function batchStatusOf(snapshot: BatchSnapshot): BatchStatus {
  const pending = pendingOf(snapshot);
  if (snapshot.cancelledAt !== undefined) return pending > 0 ? 'cancelling' : 'cancelled';
  return pending > 0 ? 'running' : 'completed';
}
