import type { BatchItemFailure, BatchItemUsage } from '../../generated/schema-types.js';
import type { ProviderName } from './provider-name.js';

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

/**
 * What an OpenAI Batch API batch (`POST /v1/batches`) adds to its record: its items are lines of
 * the input file, each run through the gateway's own route for `endpoint` rather than the toolkit.
 */
export interface OpenAiBatchSpec {
  /** `/v1/chat/completions`, `/v1/responses` or `/v1/embeddings`: every line's `url`. */
  readonly endpoint: string;
  readonly inputFileId: string;
  /** Always `24h` (the only window OpenAI offers). */
  readonly completionWindow: string;
  /** Epoch ms after which unfinished lines expire (`batch_expired`). */
  readonly expiresAtMs: number;
  readonly metadata?: Readonly<Record<string, string>>;
}

/**
 * How an OpenAI batch ended, once its output and error files are written: set once, by the first
 * finalizer (a worker recording the last outcome, or a read finding every item ended).
 */
export interface BatchFinalization {
  /** Epoch ms. */
  readonly atMs: number;
  /** Undefined when no line succeeded (OpenAI then leaves `output_file_id` null). */
  readonly outputFileId?: string;
  /** Undefined when no line failed. */
  readonly errorFileId?: string;
  /** The completion window ran out before every line ran. */
  readonly expired?: boolean;
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
  /** Set on batches of the OpenAI Batch API: items are JSONL lines run through the gateway. */
  readonly openAi?: OpenAiBatchSpec;
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
  /** OpenAI batches: set once their output files are written. */
  readonly finalization?: BatchFinalization | undefined;
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
 * Batches of generation prompts and the outcome of each item. The queue only carries
 * `(batchId, index)`; prompts, outcomes and progress live here, so they survive a worker or API
 * restart and an embedded worker can re-enqueue what is unfinished.
 *
 * @remarks Outcomes are write-once (`finishItem`): that is what makes a redelivered job harmless.
 * Everything of a batch expires together, `ttlSeconds` after its creation.
 */
export interface BatchStore {
  /** Stores a batch and its prompts (prompts[i] is item i); 'exists' when the id is taken. */
  create(record: BatchRecord, prompts: readonly string[], ttlSeconds: number): Promise<'created' | 'exists'>;
  get(batchId: string): Promise<BatchSnapshot | undefined>;
  item(batchId: string, index: number): Promise<BatchItem | undefined>;
  /** Items `offset`…`offset+limit-1` (fewer at the end), in index order. */
  items(batchId: string, offset: number, limit: number): Promise<readonly BatchItem[]>;
  /** Indexes of the items without an outcome, ascending. */
  pendingIndexes(batchId: string): Promise<readonly number[]>;
  /**
   * Records an item's outcome and counts it, atomically, unless it already has one (the first
   * outcome wins). 'missing' for an unknown batch or an index outside it.
   */
  finishItem(batchId: string, index: number, outcome: ItemOutcome): Promise<'recorded' | 'already-finished' | 'missing'>;
  /** Marks the batch cancelled at `atMs` (the first cancel wins). */
  cancel(batchId: string, atMs: number): Promise<'cancelled' | 'already-cancelled' | 'missing'>;
  /** Ids of batches that still have items without an outcome (what a starting worker resumes). */
  unfinished(): Promise<readonly string[]>;
  /** Records how an OpenAI batch ended (the first finalization wins). */
  finalize(batchId: string, finalization: BatchFinalization): Promise<'recorded' | 'already-finalized' | 'missing'>;
  /** Ids of a merchant's OpenAI batches (records with `openAi`) still kept, newest first. */
  openAiBatchesOf(merchantId: string): Promise<readonly string[]>;
}
