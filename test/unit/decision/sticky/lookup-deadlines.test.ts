import { afterEach, describe, expect, it, vi } from 'vitest';
import { LookupDeadlines, type StickyRead } from '../../../../src/decision/sticky/lookup-deadlines.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A store read the test answers by hand. */
function pendingRead(): { read: Promise<ReadonlyMap<string, number>>; answer: (counts: ReadonlyMap<string, number>) => void; fail: () => void } {
  let answer: (counts: ReadonlyMap<string, number>) => void = () => undefined;
  let fail: () => void = () => undefined;
  const read = new Promise<ReadonlyMap<string, number>>((resolve, reject) => {
    answer = resolve;
    fail = () => reject(new Error('store down'));
  });
  return { read, answer, fail };
}

describe('sticky lookup deadlines', () => {
  it('times each lookup out at its own deadline under one timer, and answers the ones that settle first at once', async () => {
    vi.useFakeTimers();
    const deadlines = new LookupDeadlines(25);
    const outcomes: string[] = [];
    const note = (name: string) => (read: StickyRead) => outcomes.push(`${name}:${read.kind}`);
    const first = pendingRead();
    void deadlines.race(first.read).then(note('first'));
    await vi.advanceTimersByTimeAsync(10);
    const second = pendingRead();
    void deadlines.race(second.read).then(note('second'));
    const third = pendingRead();
    void deadlines.race(third.read).then(note('third'));
    expect(vi.getTimerCount()).toBe(1);
    third.answer(new Map([['adyen', 2]]));
    await vi.advanceTimersByTimeAsync(0);
    expect(outcomes).toEqual(['third:read']);
    await vi.advanceTimersByTimeAsync(14);
    expect(outcomes).toEqual(['third:read']);
    await vi.advanceTimersByTimeAsync(1);
    expect(outcomes).toEqual(['third:read', 'first:timeout']);
    // The timer re-armed for the second lookup's own deadline, 10 ms after the first's.
    expect(vi.getTimerCount()).toBe(1);
    first.answer(new Map([['stripe', 1]]));
    await vi.advanceTimersByTimeAsync(9);
    expect(outcomes).toEqual(['third:read', 'first:timeout']);
    await vi.advanceTimersByTimeAsync(1);
    expect(outcomes).toEqual(['third:read', 'first:timeout', 'second:timeout']);
    second.fail();
    await vi.advanceTimersByTimeAsync(100);
    expect(outcomes).toHaveLength(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('answers error for a failed store before the deadline, and arms again after going idle', async () => {
    vi.useFakeTimers();
    const deadlines = new LookupDeadlines(25);
    const failing = pendingRead();
    const failed = deadlines.race(failing.read);
    failing.fail();
    expect(await failed).toEqual({ kind: 'error' });
    await vi.advanceTimersByTimeAsync(25);
    expect(vi.getTimerCount()).toBe(0);
    const late = pendingRead();
    const timedOut = deadlines.race(late.read);
    await vi.advanceTimersByTimeAsync(25);
    expect(await timedOut).toEqual({ kind: 'timeout' });
  });
});
