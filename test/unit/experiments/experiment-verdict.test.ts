import { describe, expect, it } from 'vitest';
import { experimentStatistics } from '../../../src/experiments/experiment-verdict.js';
import type { ExperimentArmFacts } from '../../../src/ports/analytics/experiment-reports.js';

function arm(name: 'control' | 'variant', resolved: number, successes: number, cost: Partial<ExperimentArmFacts> = {}): ExperimentArmFacts {
  return {
    arm: name,
    assigned: resolved,
    resolved,
    successes,
    firstAttemptSuccesses: successes,
    avgLatencyMs: 5,
    costPayments: 0,
    chosenCostBpsSum: 0,
    costSavedBpsSum: 0,
    savedSuccessSum: 0,
    savedSuccessSquareSum: 0,
    totalCostSaved: 0,
    ...cost,
  };
}

const thresholds = { minSampleSize: 100, guardrailThresholdPp: 3, evaluationMargin: 1 };

describe('experimentStatistics', () => {
  it('collects data until each arm has the minimum sample', () => {
    const result = experimentStatistics(arm('control', 1000, 900), arm('variant', 99, 90), thresholds);
    expect(result.verdict).toBe('collecting_data');
    expect(result.p_value).toBeNull();
  });

  it('trips the guardrail when the variant is more than the threshold below control', () => {
    const result = experimentStatistics(arm('control', 1000, 900), arm('variant', 1000, 860), thresholds);
    expect(result.delta_pp).toBeCloseTo(-4, 9);
    expect(result.verdict).toBe('guardrail_breached');
  });

  it('judges an auth-only experiment on the auth z-test, interval in percentage points', () => {
    const result = experimentStatistics(arm('control', 1000, 850), arm('variant', 1000, 900), thresholds);
    expect(result.verdict).toBe('variant_wins');
    expect(result.p_value).toBeCloseTo(0.00070245, 7);
    expect(result.net_delta_bps).toBeNull();
    expect(result.control.net_ev_bps).toBeNull();
    const [low, high] = result.confidence_interval ?? [Number.NaN, Number.NaN];
    expect(low).toBeLessThan(5);
    expect(high).toBeGreaterThan(5);
    expect((low + high) / 2).toBeCloseTo(5, 9);
  });

  it('calls a small difference not significant', () => {
    const result = experimentStatistics(arm('control', 200, 180), arm('variant', 200, 178), thresholds);
    expect(result.verdict).toBe('not_significant');
  });

  it('runs on expected value when either arm carries cost data', () => {
    // Variant: same auth as control but saves 80 bps on each success (at margin 0.2: 2000 bps per success).
    const variant = arm('variant', 1000, 900, {
      costPayments: 1000,
      chosenCostBpsSum: 100_000,
      costSavedBpsSum: 72_000,
      savedSuccessSum: 72_000,
      savedSuccessSquareSum: 5_760_000,
      totalCostSaved: 720,
    });
    const result = experimentStatistics(arm('control', 1000, 900), variant, { ...thresholds, evaluationMargin: 0.2 });
    expect(result.control.net_ev_bps).toBeCloseTo(1800, 9);
    expect(result.variant.net_ev_bps).toBeCloseTo(1872, 9);
    expect(result.net_delta_bps).toBeCloseTo(72, 9);
    expect(result.variant.avg_chosen_cost_bps).toBeCloseTo(100, 9);
    expect(result.control.avg_chosen_cost_bps).toBeNull();
    // Per-payment values 2000 / 2080 × success: z = 72 / 27.387 ≈ 2.629 (Python math.erfc → p ≈ 0.00857).
    expect(result.p_value).toBeCloseTo(0.00857, 4);
    expect(result.verdict).toBe('variant_wins');
  });
});
