import { randomBytes } from 'node:crypto';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { Logger } from '../../logging/logger.js';
import type { FileStorage } from '../../ports/file-storage.js';
import type { BatchFinalization, BatchRecord, BatchSnapshot } from '../../ports/state/batch-store.js';
import type { BatchStore } from '../../ports/state-store.js';
import type { Clock } from '../../time/clock.js';
import { isBatchEndpoint } from '../files/batch-input.js';
import { batchFileTtlS, pageAfter, type FileService } from '../files/file-service.js';
import { pendingOf } from './batch-record.js';
import type { BatchService } from './batch-service.js';
import { defaultBatchItemTimeoutMs } from './batch-service.js';
import { batchFileId, outputLineOf } from './openai-batch-output.js';

/** 24 hours: the one completion window OpenAI offers. */
const completionWindowMs = 24 * 3_600_000;
/** Items read per store call while writing the output files. */
const finalizePage = 1000;

/** What `POST /v1/batches` asks for. */
export interface OpenAiBatchRequest {
  readonly merchantId: string;
  /** The API key the lines run under (their limits, budget and spend). */
  readonly apiKeyId: string;
  readonly inputFileId: string;
  readonly endpoint: string;
  readonly completionWindow: string;
  readonly metadata?: Readonly<Record<string, string>>;
}

export interface OpenAiBatchServiceDeps {
  readonly store: BatchStore;
  /** Stores and enqueues (the one batch executor), cancels (its queue removal). */
  readonly batches: Pick<BatchService, 'storeAndEnqueue' | 'cancel' | 'maxAttempts'>;
  readonly files: FileService;
  readonly storage: FileStorage;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly newBatchId?: () => string;
}

function invalid(message: string, param: string): SwitchyardError {
  return new SwitchyardError('SY_BATCH_INVALID', { message, details: { param } });
}

function notFound(batchId: string): SwitchyardError {
  return new SwitchyardError('SY_BATCH_NOT_FOUND', {
    message: `No batch found with id '${batchId.slice(0, 128)}'.`,
    details: { batchId: batchId.slice(0, 128) },
  });
}

/** `batch_` and 24 random base64url characters. */
function newBatchId(): string {
  return `batch_${randomBytes(18).toString('base64url')}`;
}

/**
 * The OpenAI Batch API (`/v1/batches`) on the one batch executor: a batch is a BatchRecord whose
 * items are the input file's lines (`openAi` set), queued and retried like every batch item and
 * run by `createGatewayLineProcessor` through the gateway. When the last line has ended, the
 * first finalizer (that processor, or any read) writes the output and error files under
 * deterministic ids and records them once; statuses follow OpenAI's (in_progress → finalizing →
 * completed; cancelling → cancelled; expired after the 24h window).
 *
 * @remarks `validating` is never seen: the input file is checked while `POST /v1/batches` runs,
 * and a file that does not fit the endpoint is refused with 400 rather than a `failed` batch.
 */
export class OpenAiBatchService {
  constructor(private readonly deps: OpenAiBatchServiceDeps) {}

  async create(request: OpenAiBatchRequest): Promise<BatchSnapshot> {
    if (request.completionWindow !== '24h') throw invalid('completion_window must be "24h"', 'completion_window');
    if (!isBatchEndpoint(request.endpoint)) throw invalid('endpoint must be one of /v1/chat/completions, /v1/responses, /v1/embeddings', 'endpoint');
    const lines = await this.deps.files.batchInput(request.merchantId, request.inputFileId).catch((error: unknown) => {
      // An unknown input file is the batch request's mistake (400 naming it), as OpenAI answers.
      if (SwitchyardError.isInstance(error) && error.code === 'SY_FILE_NOT_FOUND')
        throw invalid(`No file found with id '${request.inputFileId.slice(0, 128)}'.`, 'input_file_id');
      throw error;
    });
    lines.forEach((line, index) => {
      if (line.url !== request.endpoint)
        throw invalid(
          `line ${index + 1} (custom_id "${line.custom_id.slice(0, 64)}") has url ${line.url}, not the batch's endpoint ${request.endpoint}`,
          'endpoint',
        );
    });
    const now = this.deps.clock.now();
    const record: BatchRecord = {
      batchId: (this.deps.newBatchId ?? newBatchId)(),
      merchantId: request.merchantId,
      apiKeyId: request.apiKeyId,
      createdAt: now,
      total: lines.length,
      // The provider is the gateway's choice per line; `openai` only names the wire the lines speak.
      options: { provider: 'openai', timeoutMs: defaultBatchItemTimeoutMs },
      maxAttempts: this.deps.batches.maxAttempts,
      openAi: {
        endpoint: request.endpoint,
        inputFileId: request.inputFileId,
        completionWindow: request.completionWindow,
        expiresAtMs: now + completionWindowMs,
        ...(request.metadata !== undefined ? { metadata: request.metadata } : {}),
      },
    };
    await this.deps.batches.storeAndEnqueue(
      record,
      lines.map((line) => JSON.stringify(line)),
    );
    this.deps.logger.info({ batchId: record.batchId, merchantId: record.merchantId, lines: record.total, endpoint: request.endpoint }, 'openai batch created');
    return this.mustGet(record.batchId);
  }

  /** The merchant's batch, finalized first when every line has ended (or expired first when its window ran out). */
  async retrieve(merchantId: string, batchId: string): Promise<BatchSnapshot> {
    const snapshot = await this.own(merchantId, batchId);
    const expiresAtMs = snapshot.record.openAi?.expiresAtMs;
    if (expiresAtMs !== undefined && snapshot.cancelledAt === undefined && pendingOf(snapshot) > 0 && this.deps.clock.now() >= expiresAtMs) {
      await this.deps.batches.cancel(batchId);
    }
    return this.finalizeIfDone(batchId);
  }

  /** Cancels the merchant's batch: lines not started end as cancelled, running ones finish. */
  async cancel(merchantId: string, batchId: string): Promise<BatchSnapshot> {
    await this.own(merchantId, batchId);
    await this.deps.batches.cancel(batchId);
    return this.finalizeIfDone(batchId);
  }

  /** A page of the merchant's batches, newest first. */
  async list(
    merchantId: string,
    query: { readonly after?: string; readonly limit: number },
  ): Promise<{ readonly data: readonly BatchSnapshot[]; readonly hasMore: boolean }> {
    const ids = (await this.deps.store.openAiBatchesOf(merchantId)).map((id) => ({ id }));
    const page = pageAfter(ids, query.after, query.limit);
    const data: BatchSnapshot[] = [];
    for (const { id } of page.data) {
      const snapshot = await this.deps.store.get(id);
      if (snapshot !== undefined) data.push(snapshot);
    }
    return { data, hasMore: page.hasMore };
  }

  /**
   * Writes the output and error files of a batch whose lines have all ended and records them, once;
   * the snapshot as it then is. Safe to run from many places at once: the files' ids and bytes
   * are the same for every finalizer (outcomes are write-once), and only the first record stays.
   */
  async finalizeIfDone(batchId: string): Promise<BatchSnapshot> {
    const snapshot = await this.mustGet(batchId);
    const spec = snapshot.record.openAi;
    if (spec === undefined || snapshot.finalization !== undefined || pendingOf(snapshot) > 0) return snapshot;
    const expired = snapshot.cancelledAt !== undefined && snapshot.cancelledAt >= spec.expiresAtMs;
    const output: string[] = [];
    const errors: string[] = [];
    for (let offset = 0; offset < snapshot.record.total; offset += finalizePage) {
      for (const item of await this.deps.store.items(batchId, offset, finalizePage)) {
        const entry = outputLineOf(batchId, item, expired);
        if (entry !== undefined) (entry.file === 'output' ? output : errors).push(JSON.stringify(entry.line));
      }
    }
    const at = this.deps.clock.now();
    const [outputFileId, errorFileId] = await Promise.all([
      this.writeFile(snapshot.record, 'output', output, at),
      this.writeFile(snapshot.record, 'error', errors, at),
    ]);
    const finalization: BatchFinalization = {
      atMs: at,
      ...(outputFileId !== undefined ? { outputFileId } : {}),
      ...(errorFileId !== undefined ? { errorFileId } : {}),
      ...(expired ? { expired } : {}),
    };
    const recorded = await this.deps.store.finalize(batchId, finalization);
    if (recorded === 'recorded')
      this.deps.logger.info({ batchId, merchantId: snapshot.record.merchantId, output: output.length, errors: errors.length }, 'openai batch finalized');
    return this.mustGet(batchId);
  }

  private async writeFile(record: BatchRecord, kind: 'output' | 'error', lines: readonly string[], atMs: number): Promise<string | undefined> {
    if (lines.length === 0) return undefined;
    const content = new TextEncoder().encode(`${lines.join('\n')}\n`);
    const id = batchFileId(record.batchId, kind);
    const createdAt = Math.floor(atMs / 1000);
    await this.deps.storage.put(
      {
        id,
        merchantId: record.merchantId,
        bytes: content.byteLength,
        createdAt,
        filename: `${record.batchId}_${kind}.jsonl`,
        purpose: 'batch_output',
        expiresAt: createdAt + batchFileTtlS,
      },
      content,
    );
    return id;
  }

  /** The batch when it is this merchant's OpenAI batch; another merchant's is not found, like an unknown one. */
  private async own(merchantId: string, batchId: string): Promise<BatchSnapshot> {
    const snapshot = await this.deps.store.get(batchId);
    if (snapshot === undefined || snapshot.record.merchantId !== merchantId || snapshot.record.openAi === undefined) throw notFound(batchId);
    return snapshot;
  }

  private async mustGet(batchId: string): Promise<BatchSnapshot> {
    const snapshot = await this.deps.store.get(batchId);
    if (snapshot === undefined) throw notFound(batchId);
    return snapshot;
  }
}
