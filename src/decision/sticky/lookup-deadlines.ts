/** What the fail-open lookup came to: the counts, the deadline first, or a failed store. */
export type StickyRead = { readonly kind: 'read'; readonly counts: ReadonlyMap<string, number> } | { readonly kind: 'timeout' } | { readonly kind: 'error' };

interface Pending {
  readonly deadline: number;
  /** Cleared once the lookup settled either way. */
  settle: ((read: StickyRead) => void) | undefined;
}

/** Settled entries kept at the front of the queue before it is compacted. */
const compactAfter = 1024;

/**
 * The fail-open deadline of every sticky lookup in flight, under one timer (issue 35): a timer per
 * lookup (set, then cleared a few microseconds later) was most of what a lookup cost on the memory
 * store. Every lookup waits the same `timeoutMs`, so deadlines are queued in the order they fall;
 * one timer armed for the oldest pending deadline answers `timeout` to every lookup past its own
 * and re-arms for the next one still pending. A lookup that settles first answers at once and is
 * skipped when its deadline comes. The timer does not keep the process alive.
 */
export class LookupDeadlines {
  readonly #timeoutMs: number;
  #queue: Pending[] = [];
  #head = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /**
   * The counts, or `timeout` once the deadline passed first, or `error` when the store failed: a
   * decision never waits longer than the deadline and never fails for sticky routing. A read that
   * settles after its deadline is dropped (its rejection too, so nothing goes unhandled).
   */
  race(read: Promise<ReadonlyMap<string, number>>): Promise<StickyRead> {
    return new Promise((resolve) => {
      const entry: Pending = { deadline: performance.now() + this.#timeoutMs, settle: resolve };
      this.#queue.push(entry);
      if (this.#timer === undefined) this.#arm(this.#timeoutMs);
      read.then(
        (counts) => {
          if (entry.settle === undefined) return;
          entry.settle = undefined;
          resolve({ kind: 'read', counts });
        },
        () => {
          if (entry.settle === undefined) return;
          entry.settle = undefined;
          resolve({ kind: 'error' });
        },
      );
    });
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(this.#expire, ms);
    this.#timer.unref?.();
  }

  readonly #expire = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    const queue = this.#queue;
    let head = this.#head;
    for (; head < queue.length; head++) {
      const entry = queue[head] as Pending;
      if (entry.settle === undefined) continue;
      if (entry.deadline > now) break;
      const settle = entry.settle;
      entry.settle = undefined;
      settle({ kind: 'timeout' });
    }
    if (head === queue.length) {
      this.#queue = [];
      this.#head = 0;
      return;
    }
    if (head >= compactAfter) {
      this.#queue = queue.slice(head);
      head = 0;
    }
    this.#head = head;
    this.#arm(Math.max(0, (this.#queue[head] as Pending).deadline - now));
  };
}
