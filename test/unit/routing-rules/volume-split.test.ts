import { describe, expect, it } from 'vitest';
import { createSequenceRandom } from '../../../src/decision/random-source.js';
import { compileRoutingAlgorithm } from '../../../src/routing-rules/compile-routing-algorithm.js';
import { flattenDistinct, pickWeightedIndex, winnerFirst } from '../../../src/routing-rules/volume-split.js';
import { createSeededRandom } from '../../helpers/seeded-random.js';

const a = { gateway_name: 'a', gateway_id: null };
const b = { gateway_name: 'b', gateway_id: null };
const c = { gateway_name: 'c', gateway_id: null };

describe('pickWeightedIndex', () => {
  it('maps a draw to the entry whose share of [0, 1) it falls in', () => {
    const weights = [70, 30];
    const picks = [0, 0.5, 0.6999, 0.7, 0.9999].map((draw) => pickWeightedIndex(weights, 100, createSequenceRandom([draw])));
    expect(picks).toEqual([0, 0, 0, 1, 1]);
  });

  it('never picks a zero weight', () => {
    const weights = [0, 50, 0, 50, 0];
    const picks = [0, 0.25, 0.4999, 0.5, 0.9999].map((draw) => pickWeightedIndex(weights, 100, createSequenceRandom([draw])));
    expect(picks).toEqual([1, 1, 1, 3, 3]);
  });

  it('falls back to the first entry when every weight is zero instead of dividing by zero', () => {
    expect(pickWeightedIndex([0, 0], 0, createSequenceRandom([0.5]))).toBe(0);
  });
});

describe('winnerFirst and flattenDistinct', () => {
  it('puts the winner first and keeps the others in their original order', () => {
    expect(winnerFirst([a, b, c], 2)).toEqual([c, a, b]);
    expect(winnerFirst([a, b, c], 1)).toEqual([b, a, c]);
    expect(winnerFirst([a, b, c], 0)).toEqual([a, b, c]);
  });

  it('keeps the first occurrence of each connector', () => {
    expect(flattenDistinct([[b, a], [a, c, b], [c]])).toEqual([b, a, c]);
  });
});

/** |observed − expected| within `sigmas` binomial standard deviations. */
function withinBinomialBound(observed: number, trials: number, p: number, sigmas: number): boolean {
  const expected = trials * p;
  return Math.abs(observed - expected) <= sigmas * Math.sqrt(trials * p * (1 - p));
}

describe('volume split statistics', () => {
  const trials = 20_000;

  it('sends 70/30 traffic within 4.5 sigma over 20,000 seeded evaluations', () => {
    const compiled = compileRoutingAlgorithm({
      type: 'volume_split',
      data: [
        { split: 70, output: a },
        { split: 30, output: b },
      ],
    });
    const random = createSeededRandom(20_261_122);
    let first = 0;
    for (let i = 0; i < trials; i++) {
      const result = compiled.evaluate({}, random);
      if (!result.ok) throw new Error('unexpected error');
      if (result.evaluation.evaluatedOutput[0]?.gateway_name === 'a') first++;
    }
    // sigma = sqrt(20000 × 0.7 × 0.3) ≈ 64.8, so the bound is ±292 around 14,000.
    expect(withinBinomialBound(first, trials, 0.7, 4.5)).toBe(true);
  });

  it('sends 50/30/20 traffic within 4.5 sigma per connector in an advanced rule', () => {
    const compiled = compileRoutingAlgorithm({
      type: 'advanced',
      data: {
        globals: {},
        default_selection: { priority: [c] },
        metadata: null,
        rules: [
          {
            name: 'split',
            routing_type: 'volume_split',
            output: {
              volume_split: [
                { split: 50, output: a },
                { split: 30, output: b },
                { split: 20, output: c },
              ],
            },
            statements: [{ condition: [] }],
          },
        ],
      },
    });
    const random = createSeededRandom(7);
    const counts = new Map<string, number>();
    for (let i = 0; i < trials; i++) {
      const result = compiled.evaluate({}, random);
      if (!result.ok) throw new Error('unexpected error');
      const winner = result.evaluation.evaluatedOutput[0]?.gateway_name ?? '';
      counts.set(winner, (counts.get(winner) ?? 0) + 1);
    }
    expect(withinBinomialBound(counts.get('a') ?? 0, trials, 0.5, 4.5)).toBe(true);
    expect(withinBinomialBound(counts.get('b') ?? 0, trials, 0.3, 4.5)).toBe(true);
    expect(withinBinomialBound(counts.get('c') ?? 0, trials, 0.2, 4.5)).toBe(true);
  });

  it('would detect a skewed split: the bound rejects 72/28 at this sample size', () => {
    expect(withinBinomialBound(0.72 * trials, trials, 0.7, 4.5)).toBe(false);
  });
});
