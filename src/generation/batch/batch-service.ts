import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { BatchSharedOptions } from '../../generated/schema-types.js';
import type { Logger } from '../../logging/logger.js';
import type { JobQueue, RetryPolicy } from '../../ports/job-queue.js';
import type { BatchStore } from '../../ports/state-store.js';
import type { Clock } from '../../time/clock.js';
import { DeprecationNotice } from '../deprecation-notice.js';
import { MAX_INPUT_LENGTH, normalizeOptions } from '../normalize-options.js';
import type { BatchModels } from './batch-models.js';
import { batchJobId, batchQueueOf, type BatchItemJob } from './batch-queue.js';
import { pendingOf } from './batch-record.js';
import type { BatchOptions, BatchRecord } from '../../ports/state/batch-store.js';
import { toBatchItemView, toBatchView, type BatchResultsPage, type BatchView } from './batch-view.js';

/** The options a batch's prompts share (schemas/http/batches/batch-shared-options.json). */
export type SharedBatchOptions = BatchSharedOptions;

export interface BatchSubmission {
  readonly merchantId: string;
  readonly userId?: string;
  readonly apiKeyId?: string;
  readonly prompts: readonly string[];
  readonly options?: SharedBatchOptions;
}

export interface BatchSettings {
  /** Most prompts a batch may carry (`BATCH_MAX_PROMPTS`). */
  readonly maxPrompts: number;
  /** Attempts per item for retryable failures (`BATCH_ATTEMPTS`). */
  readonly attempts: number;
  /** First retry delay, doubled on each further retry (`BATCH_BACKOFF_MS`). */
  readonly backoffMs: number;
  /** How long a batch and its results are kept (`BATCH_RETENTION_DAYS`). */
  readonly retentionDays: number;
}

export interface BatchServiceDeps {
  readonly store: BatchStore;
  readonly queue: JobQueue;
  readonly models: BatchModels;
  readonly settings: BatchSettings;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly newBatchId?: () => string;
}

/** What a starting worker found and did about unfinished batches. */
export interface ResumeReport {
  readonly batches: number;
  /** Items whose job the queue no longer knew, enqueued again. */
  readonly requeued: number;
  /** Items whose job the queue had given up on without an outcome, moved to the dead letter. */
  readonly abandoned: number;
  /** Items of cancelled batches that had not started, marked cancelled. */
  readonly cancelled: number;
}

/** 120 s per item unless the batch says otherwise: an unanswered call must not hold its job forever. */
export const defaultBatchItemTimeoutMs = 120_000;
export const defaultResultsPageSize = 100;
export const maxResultsPageSize = 1000;
/** Jobs per enqueue call: one bulk add stays small enough for a single Redis round trip. */
const enqueueChunk = 500;
/** Queue calls in flight at once while cancelling or resuming a batch. */
const queueCallParallelism = 16;

/** Runs `task` over `items`, at most `parallelism` at a time. */
async function forEachLimited<T>(items: readonly T[], parallelism: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(parallelism, items.length) }, async () => {
    while (next < items.length) await task(items[next++]!);
  });
  await Promise.all(lanes);
}

function invalid(message: string, details: Record<string, unknown> = {}): SwitchyardError {
  return new SwitchyardError('SY_BATCH_INVALID', { message, details });
}

/** The toolkit's refusal of an option, as a batch refusal naming the same option. */
function refusedOption(error: unknown): SwitchyardError {
  const option = (error as { option?: unknown }).option;
  return invalid((error as Error).message, typeof option === 'string' ? { option } : {});
}

/**
 * Batch generation jobs: submit (one queued job per prompt, id `<batchId>:<index>`), progress,
 * paged results, cancel, and the resume a worker runs at start. Used by the HTTP routes and the
 * CLI alike; the caller checks that the batch's `merchantId` is the credential's.
 *
 * Items are processed by `createBatchItemProcessor` (workers/generation.ts).
 */
export class BatchService {
  private readonly retry: RetryPolicy;
  private readonly newBatchId: () => string;
  private readonly notice = new DeprecationNotice(() => undefined, true);

  constructor(private readonly deps: BatchServiceDeps) {
    this.retry = { attempts: deps.settings.attempts, backoffMs: deps.settings.backoffMs };
    this.newBatchId = deps.newBatchId ?? (() => crypto.randomUUID());
  }

  /** Attempts each item gets (BATCH_ATTEMPTS), as a new record stores them. */
  get maxAttempts(): number {
    return this.retry.attempts;
  }

  /**
   * Validates the prompts and shared options, stores the batch and enqueues its items. Throws
   * SY_BATCH_INVALID (naming the problem) before anything is stored, or SY_QUEUE_UNAVAILABLE when
   * the jobs could not be enqueued (the stored batch is then cancelled, so nothing runs later).
   */
  async submit(submission: BatchSubmission): Promise<BatchView> {
    const options = this.validate(submission);
    const record: BatchRecord = {
      batchId: this.newBatchId(),
      merchantId: submission.merchantId,
      ...(submission.userId !== undefined ? { userId: submission.userId } : {}),
      ...(submission.apiKeyId !== undefined ? { apiKeyId: submission.apiKeyId } : {}),
      createdAt: this.deps.clock.now(),
      total: submission.prompts.length,
      options,
      maxAttempts: this.retry.attempts,
    };
    await this.storeAndEnqueue(record, submission.prompts);
    this.deps.logger.info({ batchId: record.batchId, merchantId: record.merchantId, items: record.total, provider: options.provider }, 'batch submitted');
    return this.mustView(record.batchId);
  }

  /**
   * Stores a batch whose items are already checked and enqueues one job per item, on the queue of
   * its record (an OpenAI batch's lines go to the gateway lines' queue). Throws SY_QUEUE_UNAVAILABLE
   * when the jobs could not be enqueued (the stored batch is then cancelled, so nothing runs later).
   */
  async storeAndEnqueue(record: BatchRecord, items: readonly string[]): Promise<void> {
    const created = await this.deps.store.create(record, items, this.deps.settings.retentionDays * 86_400);
    if (created === 'exists') throw new SwitchyardError('SY_INTERNAL', { message: 'batch id collision', details: { batchId: record.batchId } });
    const queue = batchQueueOf(record);
    try {
      for (let start = 0; start < record.total; start += enqueueChunk) {
        const jobs = [];
        for (let index = start; index < Math.min(record.total, start + enqueueChunk); index++) {
          jobs.push({ id: batchJobId(record.batchId, index), data: { batchId: record.batchId, index } satisfies BatchItemJob });
        }
        await this.deps.queue.enqueue(queue, jobs, this.retry);
      }
    } catch (error) {
      // The caller sees a failure and may submit again: this batch must then never run.
      await this.deps.store.cancel(record.batchId, this.deps.clock.now()).catch((cancelError: unknown) => {
        this.deps.logger.error(
          { err: cancelError, batchId: record.batchId },
          'batch could not be cancelled after a failed enqueue; its items are skipped only once cancelled',
        );
      });
      throw error;
    }
  }

  /** The batch's progress; undefined when there is no such batch (or it expired). */
  async status(batchId: string): Promise<BatchView | undefined> {
    const snapshot = await this.deps.store.get(batchId);
    return snapshot === undefined ? undefined : toBatchView(snapshot);
  }

  /** One page of items in index order, each with its result or dead-letter entry. */
  async results(batchId: string, page: { readonly offset?: number; readonly limit?: number } = {}): Promise<BatchResultsPage | undefined> {
    const offset = page.offset ?? 0;
    const limit = page.limit ?? defaultResultsPageSize;
    if (!Number.isInteger(offset) || offset < 0) throw invalid('offset must be an integer ≥ 0', { option: 'offset' });
    if (!Number.isInteger(limit) || limit < 1 || limit > maxResultsPageSize)
      throw invalid(`limit must be an integer from 1 to ${maxResultsPageSize}`, { option: 'limit' });
    const snapshot = await this.deps.store.get(batchId);
    if (snapshot === undefined) return undefined;
    const items = await this.deps.store.items(batchId, offset, limit);
    const end = offset + items.length;
    return {
      batchId,
      status: toBatchView(snapshot).status,
      total: snapshot.record.total,
      offset,
      limit,
      items: items.map((item) => toBatchItemView(batchId, item)),
      ...(end < snapshot.record.total ? { nextOffset: end } : {}),
    };
  }

  /**
   * Cancels a batch: items not yet started are removed from the queue and marked cancelled;
   * running ones finish (their results are kept). Cancelling again changes nothing, and neither
   * does cancelling a finished batch: it keeps its final status (`completed`), no `cancelledAt`.
   */
  async cancel(batchId: string): Promise<BatchView | undefined> {
    const snapshot = await this.deps.store.get(batchId);
    if (snapshot === undefined) return undefined;
    if (snapshot.cancelledAt === undefined && pendingOf(snapshot) === 0) return toBatchView(snapshot);
    const at = this.deps.clock.now();
    await this.deps.store.cancel(batchId, at);
    const queue = batchQueueOf(snapshot.record);
    await forEachLimited(await this.deps.store.pendingIndexes(batchId), queueCallParallelism, async (index) => {
      const outcome = await this.deps.queue.cancel(queue, batchJobId(batchId, index));
      // 'active': its worker records it. Anything else will never run here again.
      if (outcome !== 'active') await this.deps.store.finishItem(batchId, index, { status: 'cancelled', finishedAt: at });
    });
    this.deps.logger.info({ batchId, merchantId: snapshot.record.merchantId }, 'batch cancelled');
    return this.mustView(batchId);
  }

  /**
   * Brings unfinished batches back in line with the queue, at worker start: an item whose job
   * the queue does not know (the embedded queue lost it with its process, or Redis lost it) is
   * enqueued again under the same id; an item whose job the queue gave up on without an outcome
   * goes to the dead letter; items of cancelled batches that are not running are marked
   * cancelled. Safe to run in many workers at once: ids are deterministic, outcomes write-once.
   */
  async resumeUnfinished(): Promise<ResumeReport> {
    let batches = 0;
    let requeued = 0;
    let abandoned = 0;
    let cancelled = 0;
    for (const batchId of await this.deps.store.unfinished()) {
      const snapshot = await this.deps.store.get(batchId);
      if (snapshot === undefined) continue;
      batches += 1;
      const queue = batchQueueOf(snapshot.record);
      const lost: number[] = [];
      const at = this.deps.clock.now();
      await forEachLimited(await this.deps.store.pendingIndexes(batchId), queueCallParallelism, async (index) => {
        const state = await this.deps.queue.state(queue, batchJobId(batchId, index));
        if (snapshot.cancelledAt !== undefined) {
          if (state !== 'active' && (await this.deps.store.finishItem(batchId, index, { status: 'cancelled', finishedAt: at })) === 'recorded') cancelled += 1;
        } else if (state === undefined) {
          lost.push(index);
        } else if (state === 'failed') {
          const error = {
            errorClass: 'JobAbandonedError',
            message: 'the queue gave up on this item: its worker failed or died on every attempt',
            retryable: true,
          };
          if (
            (await this.deps.store.finishItem(batchId, index, { status: 'failed', error, attempts: snapshot.record.maxAttempts, finishedAt: at })) ===
            'recorded'
          )
            abandoned += 1;
        }
      });
      const jobs = lost.sort((a, b) => a - b).map((index) => ({ id: batchJobId(batchId, index), data: { batchId, index } satisfies BatchItemJob }));
      for (let start = 0; start < jobs.length; start += enqueueChunk) await this.deps.queue.enqueue(queue, jobs.slice(start, start + enqueueChunk), this.retry);
      requeued += jobs.length;
    }
    const report = { batches, requeued, abandoned, cancelled };
    if (batches > 0) this.deps.logger.info(report, 'unfinished batches resumed');
    return report;
  }

  private async mustView(batchId: string): Promise<BatchView> {
    const view = await this.status(batchId);
    if (view === undefined) throw new SwitchyardError('SY_BATCH_NOT_FOUND', { details: { batchId } });
    return view;
  }

  private validate(submission: BatchSubmission): BatchOptions {
    const { prompts } = submission;
    const max = this.deps.settings.maxPrompts;
    if (!Array.isArray(prompts) || prompts.length === 0) throw invalid('prompts must be a non-empty array of strings', { option: 'prompts' });
    if (prompts.length > max) throw invalid(`a batch may carry at most ${max} prompts; got ${prompts.length}`, { option: 'prompts', max });
    prompts.forEach((prompt, index) => {
      if (typeof prompt !== 'string' || prompt.trim() === '') throw invalid(`prompts[${index}] must be a non-empty string`, { option: `prompts[${index}]` });
      if (prompt.length > MAX_INPUT_LENGTH) throw invalid(`prompts[${index}] must be at most ${MAX_INPUT_LENGTH} characters`, { option: `prompts[${index}]` });
    });
    const shared = submission.options ?? {};
    try {
      // The toolkit's own rules (ranges, provider names, timeout text), checked once for all items.
      const request = normalizeOptions({ ...shared, input: { text: prompts[0]! }, disableTools: true }, this.notice);
      const provider = this.deps.models.getProviderSelection(shared.provider).provider;
      return {
        provider,
        ...(request.model !== undefined ? { model: request.model } : {}),
        ...(shared.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(shared.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
        ...(shared.systemPrompt !== undefined && shared.systemPrompt !== '' ? { systemPrompt: shared.systemPrompt } : {}),
        timeoutMs: request.timeoutMs ?? defaultBatchItemTimeoutMs,
      };
    } catch (error) {
      // A bad option or a provider this server has no credentials for: the caller's to fix.
      const code = (error as { code?: unknown }).code;
      if (code === 'INVALID_REQUEST' || code === 'CONFIGURATION') throw refusedOption(error);
      throw error;
    }
  }
}
