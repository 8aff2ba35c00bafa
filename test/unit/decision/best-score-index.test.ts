import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bestScoreIndex, rankByScore } from '../../../src/decision/best-score-index.js';

describe('bestScoreIndex', () => {
  it('finds the highest score', () => {
    expect(bestScoreIndex([0.2, 0.9, 0.5])).toBe(1);
  });

  it('breaks ties by the lowest index', () => {
    expect(bestScoreIndex([0.5, 0.9, 0.9])).toBe(1);
    expect(bestScoreIndex([1, 1, 1])).toBe(0);
  });

  it('returns -1 for no scores', () => {
    expect(bestScoreIndex([])).toBe(-1);
  });
});

describe('rankByScore', () => {
  it('orders indexes by descending score, ties in list order', () => {
    expect(rankByScore([0.5, 0.9, 0.5, 1, 0.9])).toEqual([3, 1, 4, 0, 2]);
  });

  it('agrees with a stable sort by descending score, ties included', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.integer({ min: 0, max: 4 }).map((step) => step / 4),
          { maxLength: 12 },
        ),
        (scores) => {
          const reference = scores.map((_, index) => index).sort((a, b) => (scores[b] as number) - (scores[a] as number));
          expect(rankByScore(scores)).toEqual(reference);
          expect(rankByScore(scores)[0] ?? -1).toBe(bestScoreIndex(scores));
        },
      ),
    );
  });
});
