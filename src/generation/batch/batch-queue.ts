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
