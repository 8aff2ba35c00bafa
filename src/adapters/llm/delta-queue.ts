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
