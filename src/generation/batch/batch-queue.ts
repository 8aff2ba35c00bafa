import type { BatchRecord } from '../../ports/state/batch-store.js';
import type { ProviderName } from '../provider-name.js';

/** What a batch job carries: the item's address only. Prompt and options are read from the BatchStore. */
export interface BatchItemJob {
  readonly batchId: string;
  readonly index: number;
}

/**
 * One queue per provider: a queue is the unit BullMQ limits (concurrency per worker, rate across
 * workers), so per-provider limits need per-provider queues.
 */
export function batchQueueName(provider: ProviderName): string {
  return `generation-${provider}`;
}

/** `<batchId>:<index>`: deterministic, so a re-enqueued item is the same job (and a duplicate no-op). */
export function batchJobId(batchId: string, index: number): string {
  return `${batchId}:${index}`;
}

/**
 * The queue of OpenAI Batch API lines: one for every provider, since a line's provider is only
 * known once the gateway routes it. Consumed where the gateway runs (cli/start-service.ts).
 */
export const gatewayBatchQueue = 'generation-gateway-lines';

/** The queue a batch's items go to: its provider's, or the gateway lines' for an OpenAI batch. */
export function batchQueueOf(record: BatchRecord): string {
  return record.openAi !== undefined ? gatewayBatchQueue : batchQueueName(record.options.provider);
}
