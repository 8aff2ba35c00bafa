import { describe, expect, it } from 'vitest';
import type { EliminationScore } from '../../../src/ports/state-store.js';
import { applyEliminationScores, downtimeApproachOf, eliminationThresholdOf, type EliminationInput } from '../../../src/decision/elimination.js';
import type { RoutingApproach } from '../../../src/decision/routing-approach.js';
import { defaultRoutingDefaults } from '../../../src/decision/routing-defaults.js';

const nowMs = 1_700_000_000_000;
const fresh = (score: number): EliminationScore => ({ score, transactionCount: 1, updatedAt: nowMs - 1_000 });

function eliminate(scores: number[], stored: (EliminationScore | undefined)[], approach: RoutingApproach = 'SR_SELECTION_V3_ROUTING', threshold = 0.05) {
  const input: EliminationInput = { scores, eliminationScores: stored, threshold, approach, nowMs, defaults: defaultRoutingDefaults };
  return { approach: applyEliminationScores(input), scores };
}

describe('eliminationThresholdOf', () => {
  it('uses the merchant elimination threshold', () => {
    expect(eliminationThresholdOf({ threshold: 0.35 }, defaultRoutingDefaults)).toBe(0.35);
  });

  it('falls back to 0.05 without a merchant config', () => {
    expect(eliminationThresholdOf(undefined, defaultRoutingDefaults)).toBe(0.05);
  });
});

describe('applyEliminationScores', () => {
  it('divides the score of a gateway below the threshold by 5', () => {
    const result = eliminate([0.9, 0.8], [fresh(0.04), fresh(0.5)]);
    expect(result.scores).toEqual([0.9 / 5, 0.8]);
    expect(result.approach).toBe('SR_V3_DOWNTIME_ROUTING');
  });

  it('keeps a gateway at exactly the threshold', () => {
    const result = eliminate([0.9, 0.8], [fresh(0.05), undefined]);
    expect(result.scores).toEqual([0.9, 0.8]);
    expect(result.approach).toBe('SR_SELECTION_V3_ROUTING');
  });

  it('labels all-downtime when every candidate is below the threshold', () => {
    const result = eliminate([1, 1], [fresh(0.01), fresh(0.02)]);
    expect(result.scores).toEqual([0.2, 0.2]);
    expect(result.approach).toBe('SR_V3_ALL_DOWNTIME_ROUTING');
  });

  it('uses the merchant threshold', () => {
    const result = eliminate([1, 1, 1], [fresh(0.3), fresh(0.4), undefined], 'PRIORITY_LOGIC', 0.35);
    expect(result.scores).toEqual([0.2, 1, 1]);
    expect(result.approach).toBe('PL_DOWNTIME_ROUTING');
  });

  it('keeps the approach of a single candidate while still demoting its score', () => {
    const result = eliminate([1], [fresh(0.01)], 'DEFAULT');
    expect(result.scores).toEqual([0.2]);
    expect(result.approach).toBe('DEFAULT');
  });

  it('treats a score older than the 9,000,000 ms key TTL as absent', () => {
    const expired: EliminationScore = { score: 0.01, transactionCount: 60, updatedAt: nowMs - 9_000_000 };
    const result = eliminate([1, 1], [expired, fresh(0.01)]);
    expect(result.scores).toEqual([1, 0.2]);
    expect(result.approach).toBe('SR_V3_DOWNTIME_ROUTING');
  });

  it('reports the hedging downtime variants for a hedged decision', () => {
    expect(eliminate([0.5, 1], [fresh(0), undefined], 'SR_V3_HEDGING').approach).toBe('SR_V3_DOWNTIME_HEDGING');
    expect(eliminate([0.5, 1], [fresh(0), fresh(0)], 'SR_V3_HEDGING').approach).toBe('SR_V3_ALL_DOWNTIME_HEDGING');
  });
});

describe('downtimeApproachOf', () => {
  it.each([
    ['SR_SELECTION_V3_ROUTING', 'some', 'SR_V3_DOWNTIME_ROUTING'],
    ['SR_SELECTION_V3_ROUTING', 'all', 'SR_V3_ALL_DOWNTIME_ROUTING'],
    ['SR_V3_HEDGING', 'some', 'SR_V3_DOWNTIME_HEDGING'],
    ['SR_V3_HEDGING', 'all', 'SR_V3_ALL_DOWNTIME_HEDGING'],
    ['PRIORITY_LOGIC', 'some', 'PL_DOWNTIME_ROUTING'],
    ['PRIORITY_LOGIC', 'all', 'PL_ALL_DOWNTIME_ROUTING'],
    ['DEFAULT', 'some', 'PL_DOWNTIME_ROUTING'],
    ['DEFAULT', 'all', 'PL_ALL_DOWNTIME_ROUTING'],
  ] as const)('relabels %s with %s below the threshold as %s', (approach, extent, expected) => {
    expect(downtimeApproachOf(approach, extent)).toBe(expected);
  });
});
