import type { Logger } from '../../logging/logger.js';
import type { JobProcessor } from '../../ports/job-queue.js';
import type { ItemUsage } from '../../ports/state/batch-store.js';
import type { BatchStore } from '../../ports/state-store.js';
import type { Clock } from '../../time/clock.js';
import type { BatchItemJob } from './batch-queue.js';
import { classifyFailure } from './classify-failure.js';
import type { GatewayLineAnswer, GatewayLineRunner } from './gateway-line.js';
import { batchLineIds } from './openai-batch-output.js';
import type { OpenAiBatchService } from './openai-batch-service.js';

export interface GatewayLineProcessorDeps {
  readonly store: BatchStore;
  readonly lines: GatewayLineRunner;
  /** Writes the output files once the last line has ended. */
  readonly batches: Pick<OpenAiBatchService, 'finalizeIfDone'>;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** A line answered with a status another attempt may change: a 5xx, or a 429 that is not a spent budget. */
class RetryableLineAnswer extends Error {
  override readonly name = 'RetryableLineAnswer';
  readonly isRetryable = true;
  constructor(readonly statusCode: number) {
    super(`the gateway answered ${statusCode}`);
  }
}

function errorOf(body: unknown): { readonly message?: unknown; readonly code?: unknown } {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === 'object' && error !== null ? (error as { message?: unknown; code?: unknown }) : {};
}

function isRetryableStatus(answer: GatewayLineAnswer): boolean {
  if (answer.statusCode >= 500) return true;
  // A key's spent budget does not lift within the backoff; its rpm or concurrency does.
  return answer.statusCode === 429 && errorOf(answer.body).code !== 'insufficient_quota';
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** Tokens of a 2xx body, whichever wire it speaks (chat completions and embeddings: prompt/completion; Responses: input/output). */
function usageOf(body: unknown): ItemUsage {
  const usage = (body as { usage?: Record<string, unknown> } | null)?.usage ?? {};
  const inputTokens = count(usage['prompt_tokens'] ?? usage['input_tokens']);
  const outputTokens = count(usage['completion_tokens'] ?? usage['output_tokens']);
  return { inputTokens, outputTokens, totalTokens: count(usage['total_tokens']) || inputTokens + outputTokens };
}

function finishReasonOf(body: unknown): string | undefined {
  const choice = (body as { choices?: { finish_reason?: unknown }[] } | null)?.choices?.[0];
  return typeof choice?.finish_reason === 'string' ? choice.finish_reason : undefined;
}

/**
 * The processor of OpenAI batch lines, the twin of `createBatchItemProcessor` over the same store
 * and queue, so it keeps its guarantees: an item with an outcome is skipped before any call, the
 * outcome is write-once, a cancelled batch's line ends cancelled without a call. The line runs
 * through the gateway (GatewayLineRunner) under the batch's API key. Its answer is the outcome:
 * 2xx succeeded (the body kept for the output file), anything else failed with its status and body
 * (the error file); a 5xx or a rate-limit 429 is retried first while attempts remain. The worker
 * that records the last outcome writes the output files.
 *
 * @remarks As with toolkit batches, a process dying between the gateway's answer and the outcome
 * write runs the line again; its request id is the same on every attempt, so its `llm.call`
 * records can be told apart from another line's.
 */
export function createGatewayLineProcessor(deps: GatewayLineProcessorDeps): JobProcessor<BatchItemJob> {
  return async (job) => {
    const { batchId, index } = job.data;
    const [snapshot, item] = await Promise.all([deps.store.get(batchId), deps.store.item(batchId, index)]);
    if (snapshot === undefined || item === undefined) {
      deps.logger.warn({ jobId: job.id, batchId }, 'batch line skipped: its batch is unknown or expired');
      return;
    }
    const log = deps.logger.child({ jobId: job.id, batchId, merchantId: snapshot.record.merchantId });
    if (item.outcome !== undefined) {
      log.debug({ status: item.outcome.status, attempt: job.attempt }, 'batch line already finished; skipped');
      return;
    }
    const { record } = snapshot;
    let recorded: 'recorded' | 'already-finished' | 'missing';
    if (snapshot.cancelledAt !== undefined || record.apiKeyId === undefined) {
      recorded = await deps.store.finishItem(batchId, index, { status: 'cancelled', finishedAt: deps.clock.now() });
    } else {
      const line = JSON.parse(item.prompt) as { url: string; body: Record<string, unknown> };
      const started = deps.clock.now();
      let answer: GatewayLineAnswer;
      try {
        answer = await deps.lines.run({
          merchantId: record.merchantId,
          apiKeyId: record.apiKeyId,
          url: line.url,
          body: line.body,
          requestId: batchLineIds(batchId, index).requestId,
          batchId,
          jobId: job.id,
          jobAttempt: job.attempt,
        });
        if (isRetryableStatus(answer) && job.attempt < job.maxAttempts) throw new RetryableLineAnswer(answer.statusCode);
      } catch (error) {
        const failure = classifyFailure(error);
        if (failure.retryable && job.attempt < job.maxAttempts) {
          log.info({ errorClass: failure.errorClass, attempt: job.attempt, maxAttempts: job.maxAttempts }, 'batch line failed; will retry');
          throw error;
        }
        recorded = await deps.store.finishItem(batchId, index, { status: 'failed', error: failure, attempts: job.attempt, finishedAt: deps.clock.now() });
        log.info({ errorClass: failure.errorClass, attempt: job.attempt, recorded }, 'batch line could not be run');
        await finalizeAfter(deps, batchId, recorded, log);
        return;
      }
      const finishedAt = deps.clock.now();
      if (answer.statusCode >= 200 && answer.statusCode < 300) {
        recorded = await deps.store.finishItem(batchId, index, {
          status: 'succeeded',
          content: JSON.stringify(answer.body),
          provider: answer.provider ?? '',
          model: answer.model ?? (typeof line.body['model'] === 'string' ? line.body['model'] : ''),
          usage: usageOf(answer.body),
          ...(finishReasonOf(answer.body) !== undefined ? { finishReason: finishReasonOf(answer.body)! } : {}),
          responseTimeMs: finishedAt - started,
          attempts: job.attempt,
          finishedAt,
        });
      } else {
        const error = errorOf(answer.body);
        recorded = await deps.store.finishItem(batchId, index, {
          status: 'failed',
          error: {
            errorClass: 'GatewayErrorAnswer',
            ...(typeof error.code === 'string' ? { code: error.code } : {}),
            message: typeof error.message === 'string' ? error.message : `the gateway answered ${answer.statusCode}`,
            retryable: isRetryableStatus(answer),
            statusCode: answer.statusCode,
            responseBody: JSON.stringify(answer.body),
          },
          attempts: job.attempt,
          finishedAt,
        });
      }
      log.debug({ statusCode: answer.statusCode, attempt: job.attempt, recorded }, 'batch line answered');
    }
    await finalizeAfter(deps, batchId, recorded, log);
  };
}

/** After an outcome this worker recorded: the output files, when it was the last line. A failure here is left to the next read. */
async function finalizeAfter(deps: GatewayLineProcessorDeps, batchId: string, recorded: string, log: Logger): Promise<void> {
  if (recorded !== 'recorded') return;
  try {
    await deps.batches.finalizeIfDone(batchId);
  } catch (error) {
    log.error({ err: error }, 'batch output files not written; the next read of the batch writes them');
  }
}
