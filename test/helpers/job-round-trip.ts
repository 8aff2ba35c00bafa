import type { JobQueue } from '../../src/ports/job-queue.js';

/**
 * Enqueues one job of `data` on `queue` and resolves with the data its consumer was handed: proof
 * that a job queue (BullMQ on whatever Redis the runtime reaches) carries a job end to end.
 */
export async function jobRoundTrip(jobs: JobQueue, queue: string, id: string, data: unknown): Promise<unknown> {
  let delivered: (data: unknown) => void = () => undefined;
  const done = new Promise<unknown>((resolve) => {
    delivered = resolve;
  });
  await jobs.process(queue, async (job) => delivered(job.data), { concurrency: 1 });
  await jobs.enqueue(queue, [{ id, data }], { attempts: 1, backoffMs: 10 });
  return done;
}
