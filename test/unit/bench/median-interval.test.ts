import { describe, expect, it } from 'vitest';
import { medianInterval } from '../../../bench/lib/median-interval.mjs';

/** A deterministic stream of uniform numbers in [0, 1) for the samples (not the bootstrap's own generator). */
function uniforms(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 4_294_967_296;
  };
}

describe('medianInterval (decide-bench interleaved rows)', () => {
  it('reports the lower median, as decide-bench does', () => {
    expect(medianInterval([4, 1, 3, 2]).median).toBe(2);
    expect(medianInterval([5, 1, 3]).median).toBe(3);
  });

  it('gives an interval of width zero when every round reads the same', () => {
    expect(medianInterval([0.9, 0.9, 0.9, 0.9])).toEqual({ median: 0.9, low: 0.9, high: 0.9 });
  });

  it('prints the same interval for the same rounds, inside their range and around their median', () => {
    const next = uniforms(7);
    const rounds = Array.from({ length: 30 }, () => 0.7 + 0.5 * next());
    const first = medianInterval(rounds);
    expect(medianInterval(rounds)).toEqual(first);
    expect(first.low).toBeLessThanOrEqual(first.median);
    expect(first.high).toBeGreaterThanOrEqual(first.median);
    expect(first.low).toBeGreaterThanOrEqual(Math.min(...rounds));
    expect(first.high).toBeLessThanOrEqual(Math.max(...rounds));
    expect(first.high).toBeGreaterThan(first.low);
  });

  it('scales with the rounds: ten times the spread, ten times the interval', () => {
    const next = uniforms(11);
    const rounds = Array.from({ length: 25 }, () => next());
    const narrow = medianInterval(rounds, { seed: 3 });
    const wide = medianInterval(
      rounds.map((value) => 10 * value),
      { seed: 3 },
    );
    expect(wide.low).toBeCloseTo(10 * narrow.low, 12);
    expect(wide.high).toBeCloseTo(10 * narrow.high, 12);
  });

  it('covers the true median about as often as its level says', () => {
    // 200 samples of 30 uniform rounds (true median 0.5): a 90 % interval should hold it in about
    // 180 of them. Swapped or off-by-a-tail bounds miss far more often, or never.
    const next = uniforms(2026);
    let covered = 0;
    for (let sample = 0; sample < 200; sample++) {
      const rounds = Array.from({ length: 30 }, () => next());
      const { low, high } = medianInterval(rounds, { level: 0.9, resamples: 400, seed: sample + 1 });
      if (low <= 0.5 && 0.5 <= high) covered += 1;
    }
    expect(covered).toBeGreaterThanOrEqual(166);
    expect(covered).toBeLessThanOrEqual(198);
  });

  it('refuses what it cannot summarise', () => {
    expect(() => medianInterval([])).toThrow(/at least one value/);
    expect(() => medianInterval([1, 2], { level: 1 })).toThrow(/level/);
    expect(() => medianInterval([1, 2], { resamples: 0 })).toThrow(/resamples/);
  });
});
