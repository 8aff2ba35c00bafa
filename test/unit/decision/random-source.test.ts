import { describe, expect, it } from 'vitest';
import { createSequenceRandom, mathRandom } from '../../../src/decision/random-source.js';

describe('createSequenceRandom', () => {
  it('returns the given values in order and counts draws', () => {
    const random = createSequenceRandom([0.1, 0.7]);
    expect([random.next(), random.next()]).toEqual([0.1, 0.7]);
    expect(random.drawn()).toBe(2);
  });

  it('throws when drawn more often than scripted', () => {
    const random = createSequenceRandom([0.5]);
    random.next();
    expect(() => random.next()).toThrow(RangeError);
  });

  it('rejects values outside [0, 1)', () => {
    expect(() => createSequenceRandom([1])).toThrow(RangeError);
    expect(() => createSequenceRandom([-0.1])).toThrow(RangeError);
  });
});

describe('mathRandom', () => {
  it('draws numbers in [0, 1)', () => {
    for (let index = 0; index < 100; index += 1) {
      const value = mathRandom.next();
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });
});
