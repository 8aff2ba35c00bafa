import type { BatchItemFailure, BatchItemUsage } from '../../generated/schema-types.js';
import type { ProviderName } from '../provider-name.js';

/**
 * The options every item of a batch shares, as stored with the batch: already validated, the
 * provider resolved (batches are pinned to one provider, whose queue limits they run under) and
 * the timeout in milliseconds.
 */
export interface BatchOptions {
  readonly provider: ProviderName;
  readonly model?: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly systemPrompt?: string;
  readonly timeoutMs: number;
}

/** A submitted batch; immutable once stored (its progress lives beside it, see BatchSnapshot). */
export interface BatchRecord {
  readonly batchId: string;
  readonly merchantId: string;
  /** The user who submitted it, when a session did. */
  readonly userId?: string;
  /** The API key it was submitted with: its items' calls count against that key's limits. */
  readonly apiKeyId?: string;
  /** Epoch ms. */
  readonly createdAt: number;
  /** Number of prompts, so item indexes are 0..total-1. */
  readonly total: number;
  readonly options: BatchOptions;
  /** Attempts each item gets for retryable failures. */
  readonly maxAttempts: number;
}

export interface BatchCounts {
  readonly succeeded: number;
  readonly failed: number;
  readonly cancelled: number;
}

/** A batch with its progress, as one read returns it. */
export interface BatchSnapshot {
  readonly record: BatchRecord;
  readonly counts: BatchCounts;
  /** Epoch ms of the cancel request; undefined while not cancelled. */
  readonly cancelledAt: number | undefined;
}

export type ItemUsage = BatchItemUsage;

/** Why an item went to the dead letter (schemas/http/batches/batch-item-failure.json): error class, retryability, status. */
export type ItemFailure = BatchItemFailure;

/** How an item ended. Recorded once: the first outcome stored wins, later ones are ignored. */
export type ItemOutcome =
  | {
      readonly status: 'succeeded';
      readonly content: string;
      readonly provider: string;
      readonly model: string;
      readonly usage: ItemUsage;
      readonly finishReason?: string;
      readonly responseTimeMs: number;
      readonly attempts: number;
      readonly finishedAt: number;
    }
  | { readonly status: 'failed'; readonly error: ItemFailure; readonly attempts: number; readonly finishedAt: number }
  | { readonly status: 'cancelled'; readonly finishedAt: number };

export type ItemStatus = ItemOutcome['status'] | 'pending';

/** One prompt of a batch and, once it ended, its outcome. */
export interface BatchItem {
  readonly index: number;
  readonly prompt: string;
  readonly outcome: ItemOutcome | undefined;
}

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
