/**
 * Evicts a Map's oldest entries (insertion order, so least recently set for the stores that
 * delete and set again on use) in amortised O(1).
 *
 * Why not `for (const key of map.keys()) { …; map.delete(key) }` on every insert: a fresh iterator
 * starts at the table's first slot, and V8 leaves a deleted slot in place until the table is next
 * rehashed, so each new iterator walks every slot evicted since then. A bounded map that evicts one
 * entry per insert pays O(evictions since the last rehash) per insert: about 250 µs at 500,000
 * decision contexts, measured (bench/README.md, "The decide path after 500,000 decisions"). The
 * cursor kept here is live over the map (it sees entries set after it was made, skips deleted
 * ones, follows rehashes), so no slot is walked twice.
 */
export class OldestFirst<K, V> {
  private cursor: Iterator<[K, V]>;

  constructor(private readonly map: Map<K, V>) {
    this.cursor = map.entries();
  }

  /** Deletes the oldest entry and returns it, or undefined when the map is empty. */
  evict(): readonly [K, V] | undefined {
    if (this.map.size === 0) return undefined;
    let next = this.cursor.next();
    // Done only when the cursor reached the end while the map was empty at some earlier point:
    // a finished iterator stays finished, so start a new one.
    if (next.done === true) {
      this.cursor = this.map.entries();
      next = this.cursor.next();
    }
    if (next.done === true) return undefined;
    this.map.delete(next.value[0]);
    return next.value;
  }

  /** Evicts the oldest entries until at most `max` are left. */
  trimTo(max: number): void {
    while (this.map.size > max) this.evict();
  }
}
