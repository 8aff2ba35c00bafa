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
});
