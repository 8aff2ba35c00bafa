/**
 * Spend counts still on their way to the store, by request id. A request's budget reservation is
 * released only once its calls' spend has landed, so there is no moment when a call is counted
 * neither as reserved nor as spent (another replica could otherwise admit into that gap).
 */
export class PendingSpend {
  readonly #pending = new Map<string, Set<Promise<unknown>>>();

  /** Follows one count of `requestId`; it is forgotten once settled. */
  track(requestId: string, work: Promise<unknown>): void {
    let own = this.#pending.get(requestId);
    if (own === undefined) {
      own = new Set();
      this.#pending.set(requestId, own);
    }
    const entry = work.finally(() => {
      own.delete(entry);
      if (own.size === 0 && this.#pending.get(requestId) === own) this.#pending.delete(requestId);
    });
    entry.catch(() => undefined);
    own.add(entry);
  }

  /** Resolves when every count tracked so far, of any request, has settled (failed ones included). */
  async allSettled(): Promise<void> {
    await Promise.allSettled([...this.#pending.values()].flatMap((own) => [...own]));
  }

  /** Resolves when every count of `requestId` tracked so far has settled (failed ones included). */
  async settled(requestId: string): Promise<void> {
    const own = this.#pending.get(requestId);
    if (own !== undefined) await Promise.allSettled([...own]);
  }
}
