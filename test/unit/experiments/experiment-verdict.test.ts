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

  it('trips the guardrail when the variant is worse under the always-valid test and more than the threshold below control', () => {
    const result = experimentStatistics(arm('control', 1000, 900), arm('variant', 1000, 840), thresholds);
    expect(result.delta_pp).toBeCloseTo(-6, 9);
    expect(result.verdict).toBe('guardrail_breached');
    expect(result.guardrail_test).toMatchObject({ method: 'msprt', breached: true, threshold_pp: 3 });
    expect(result.guardrail_test?.p_value).toBeLessThan(0.05);
    expect(result.guardrail_test?.confidence_interval_pp[1]).toBeLessThan(0);
  });

  it('does not trip on a drop past the threshold the evidence does not support (the old point-estimate guardrail did)', () => {
    const result = experimentStatistics(arm('control', 1000, 900), arm('variant', 1000, 860), thresholds);
    expect(result.delta_pp).toBeCloseTo(-4, 9);
    expect(result.verdict).toBe('not_significant');
    expect(result.guardrail_test?.breached).toBe(false);
    expect(result.guardrail_test?.confidence_interval_pp[1]).toBeGreaterThan(0);
  });

  it('does not trip on a significant drop within the threshold', () => {
    const result = experimentStatistics(arm('control', 20_000, 18_000), arm('variant', 20_000, 17_600), thresholds);
    expect(result.delta_pp).toBeCloseTo(-2, 9);
    expect(result.guardrail_test?.confidence_interval_pp[1]).toBeLessThan(0);
    expect(result.verdict).toBe('variant_loses');
  });

  it('judges an auth-only experiment on the always-valid auth test, interval in percentage points', () => {
    const result = experimentStatistics(arm('control', 1000, 850), arm('variant', 1000, 900), thresholds);
    expect(result.verdict).toBe('variant_wins');
    // mSPRT, τ = 0.2 σ̄ on the add-one smoothed variances: log Λ = ½ ln(s²/(s²+τ²)) + τ²δ²/(2s²(s²+τ²)) ≈ 3.924.
    expect(result.p_value).toBeCloseTo(0.019782, 5);
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
    const variant = arm('variant', 10_000, 9000, {
      costPayments: 10_000,
      chosenCostBpsSum: 1_000_000,
      costSavedBpsSum: 720_000,
      savedSuccessSum: 720_000,
      savedSuccessSquareSum: 57_600_000,
      totalCostSaved: 7200,
    });
    const result = experimentStatistics(arm('control', 10_000, 9000), variant, { ...thresholds, evaluationMargin: 0.2 });
    expect(result.control.net_ev_bps).toBeCloseTo(1800, 9);
    expect(result.variant.net_ev_bps).toBeCloseTo(1872, 9);
    expect(result.net_delta_bps).toBeCloseTo(72, 9);
    expect(result.variant.avg_chosen_cost_bps).toBeCloseTo(100, 9);
    expect(result.control.avg_chosen_cost_bps).toBeNull();
    // Per-payment values 2000 / 2080 × success: z = 72 / 8.66 ≈ 8.3, far past the always-valid bound.
    expect(result.p_value).toBeLessThan(0.001);
    expect(result.verdict).toBe('variant_wins');
    const [low, high] = result.confidence_interval ?? [Number.NaN, Number.NaN];
    expect(low).toBeGreaterThan(0);
    expect((low + high) / 2).toBeCloseTo(72, 6);
  });
});
