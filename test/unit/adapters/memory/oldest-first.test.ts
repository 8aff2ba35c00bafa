import { describe, expect, it, vi } from 'vitest';
import { OldestFirst } from '../../../../src/adapters/memory/oldest-first.js';

describe('OldestFirst', () => {
  it('evicts in insertion order, skipping deleted entries and treating a delete-and-set as newest', () => {
    const map = new Map<string, number>([
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ]);
    const eviction = new OldestFirst(map);
    expect(eviction.evict()).toEqual(['a', 1]);
    map.delete('c');
    map.delete('b');
    map.set('b', 20); // moved to the end, as the LRU stores do on a read
    map.set('e', 5);
    expect([eviction.evict(), eviction.evict(), eviction.evict()]).toEqual([
      ['d', 4],
      ['b', 20],
      ['e', 5],
    ]);
    expect(eviction.evict()).toBeUndefined();
    expect(map.size).toBe(0);
  });

  it('keeps evicting the oldest after the map was emptied and filled again', () => {
    const map = new Map<number, string>();
    const eviction = new OldestFirst(map);
    map.set(1, 'one');
    expect(eviction.evict()).toEqual([1, 'one']);
    expect(eviction.evict()).toBeUndefined();
    map.set(2, 'two');
    map.set(3, 'three');
    expect(eviction.evict()).toEqual([2, 'two']);
    expect([...map.keys()]).toEqual([3]);
  });

  it('trims to exactly the bound, newest kept', () => {
    const map = new Map<number, number>();
    const eviction = new OldestFirst(map);
    for (let i = 0; i < 1_000; i++) {
      map.set(i, i);
      eviction.trimTo(100);
    }
    expect(map.size).toBe(100);
    expect([...map.keys()]).toEqual(Array.from({ length: 100 }, (_, i) => 900 + i));
  });

  it('walks the map with one cursor however many entries it evicts', () => {
    // A fresh iterator per eviction re-walks every slot evicted since V8 last rehashed the table:
    // O(evicted) per insert, ~250 µs at 500,000 decision contexts (bench/README.md).
    const map = new Map<number, number>();
    const entries = vi.spyOn(map, 'entries');
    const eviction = new OldestFirst(map);
    for (let i = 0; i < 10_000; i++) {
      map.set(i, i);
      eviction.trimTo(50);
    }
    expect(map.size).toBe(50);
    expect(entries).toHaveBeenCalledTimes(1);
  });
});
