import type { ModelCallResult, ModelStream } from '../../generation/language-model-client.js';

/** Text deltas handed from the single stream reader to whoever iterates `textStream` (once). */
export class DeltaQueue implements AsyncIterable<string> {
  private readonly buffered: string[] = [];
  private done = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;

  push(delta: string): void {
    if (delta === '') return;
    this.buffered.push(delta);
    this.notify();
  }
  end(): void {
    this.done = true;
    this.notify();
  }
  fail(error: unknown): void {
    this.failure = { error };
    this.done = true;
    this.notify();
  }
  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    for (;;) {
      const next = this.buffered.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.failure !== undefined) throw this.failure.error;
      if (this.done) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }
}

/**
 * A `ModelStream` fed by `produce`: it pushes deltas into the queue and returns the whole result.
 * A failure (mapped by `toError`) ends the deltas with that error and rejects the result with the
 * same one, so a caller reading either sees it.
 */
export function queuedModelStream(produce: (queue: DeltaQueue) => Promise<ModelCallResult>, toError: (error: unknown) => unknown): ModelStream {
  const queue = new DeltaQueue();
  const result = (async (): Promise<ModelCallResult> => {
    try {
      const final = await produce(queue);
      queue.end();
      return final;
    } catch (error) {
      const mapped = toError(error);
      queue.fail(mapped);
      throw mapped;
    }
  })();
  // A caller that only iterates `textStream` sees the failure there; do not also report it as unhandled.
  result.catch(() => undefined);
  return { textStream: queue, result };
}
