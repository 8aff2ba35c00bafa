import type { Logger } from '../../logging/logger.js';
import type { JobProcessor } from '../../ports/job-queue.js';
import type { BatchStore } from '../../ports/state-store.js';
import type { Clock } from '../../time/clock.js';
import type { GenerateResult } from '../generate-result.js';
import type { BatchModels } from './batch-models.js';
import type { BatchItemJob } from './batch-queue.js';
import { classifyFailure } from './classify-failure.js';

export interface BatchItemProcessorDeps {
  readonly store: BatchStore;
  readonly models: Pick<BatchModels, 'generate'>;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * The processor of batch jobs. Idempotent by job id: an item that already has an outcome is
 * skipped before any model call, so a retried or redelivered job never calls (or bills) twice
 * once its outcome is stored; the outcome itself is write-once.
 *
 * A retryable failure (429, 5xx, timeout, network) with attempts left is thrown, and the queue
 * retries it with exponential backoff; a non-retryable one, or the last attempt's, goes to the
 * dead letter (outcome `failed` with the error class) and the job completes.
 *
 * @remarks The one window left is a process dying between the provider's answer and the outcome
 * write: the job then runs again (at-least-once) and the provider is called a second time. Its
 * `llm.call` record carries the same job id, which is how analytics count it once.
 */
export function createBatchItemProcessor(deps: BatchItemProcessorDeps): JobProcessor<BatchItemJob> {
  return async (job) => {
    const { batchId, index } = job.data;
    const [snapshot, item] = await Promise.all([deps.store.get(batchId), deps.store.item(batchId, index)]);
    if (snapshot === undefined || item === undefined) {
      deps.logger.warn({ jobId: job.id, batchId }, 'batch item skipped: its batch is unknown or expired');
      return;
    }
    const log = deps.logger.child({ jobId: job.id, batchId, merchantId: snapshot.record.merchantId });
    if (item.outcome !== undefined) {
      log.debug({ status: item.outcome.status, attempt: job.attempt }, 'batch item already finished; skipped');
      return;
    }
    const { record } = snapshot;
    if (snapshot.cancelledAt !== undefined) {
      await deps.store.finishItem(batchId, index, { status: 'cancelled', finishedAt: deps.clock.now() });
      return;
    }
    const { options } = record;
    let result: GenerateResult;
    try {
      result = await deps.models.generate({
        input: { text: item.prompt },
        provider: options.provider,
        ...(options.model !== undefined ? { model: options.model } : {}),
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
        ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
        timeout: options.timeoutMs,
        // Unattended: no tool can be confirmed, and a batch is text in, text out.
        disableTools: true,
        attribution: {
          merchantId: record.merchantId,
          ...(record.userId !== undefined ? { userId: record.userId } : {}),
          ...(record.apiKeyId !== undefined ? { apiKeyId: record.apiKeyId } : {}),
          batchId,
          jobId: job.id,
          jobAttempt: job.attempt,
          surface: 'batch',
        },
      });
    } catch (error) {
      const failure = classifyFailure(error);
      if (failure.retryable && job.attempt < job.maxAttempts) {
        log.info({ errorClass: failure.errorClass, attempt: job.attempt, maxAttempts: job.maxAttempts }, 'batch item failed; will retry');
        throw error;
      }
      const recorded = await deps.store.finishItem(batchId, index, { status: 'failed', error: failure, attempts: job.attempt, finishedAt: deps.clock.now() });
      log.info({ errorClass: failure.errorClass, retryable: failure.retryable, attempt: job.attempt, recorded }, 'batch item dead-lettered');
      return;
    }
    const recorded = await deps.store.finishItem(batchId, index, {
      status: 'succeeded',
      content: result.content,
      provider: result.provider,
      model: result.model,
      usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens, totalTokens: result.usage.totalTokens },
      finishReason: result.finishReason,
      responseTimeMs: result.responseTime,
      attempts: job.attempt,
      finishedAt: deps.clock.now(),
    });
    log.debug({ attempt: job.attempt, recorded }, 'batch item succeeded');
  };
}
