import type { Subscription } from '../src/ports/event-bus.js';

/** What every worker's start() returns. */
export interface WorkerHandle {
  readonly name: string;
  /** Resolves when everything published so far has been handled (tests and benchmarks await it). */
  caughtUp(): Promise<void>;
  /** Finishes the batch in hand, commits it and leaves the consumer group. */
  close(): Promise<void>;
}

export function handleOf(name: string, subscription: Subscription): WorkerHandle {
  return { name, caughtUp: () => subscription.caughtUp(), close: () => subscription.close() };
}
