/**
 * Runs background jobs (batch generation) outside the request that enqueued them.
 * In-process in embedded mode, BullMQ on Redis in distributed mode.
 *
 * @remarks Jobs are at-least-once: a processor that throws is retried up to `attempts` times,
 * so processors must be idempotent by job id.
 */
export interface JobQueue {
  enqueue<T>(queue: string, job: { readonly id?: string; readonly data: T; readonly attempts?: number }): Promise<string>;
  process<T>(queue: string, processor: (job: { readonly id: string; readonly data: T }) => Promise<void>): Promise<{ close(): Promise<void> }>;
  close(): Promise<void>;
}
