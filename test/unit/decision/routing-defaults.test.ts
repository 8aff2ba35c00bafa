import { describe, expect, it } from 'vitest';
import { defaultNetworkFeeTable } from '../../../src/decision/network/network-fee-table.js';
import { defaultRoutingDefaults } from '../../../src/decision/routing-defaults.js';

describe('defaultRoutingDefaults', () => {
  it('holds the decision-engine defaults', () => {
    expect(defaultRoutingDefaults).toEqual({
      bucketSize: 125,
      hedgingPercent: 5,
      volumeHedgingEnabled: true,
      latencyThresholdSeconds: 90,
      eliminationThreshold: 0.05,
      eliminationDivisor: 5,
      outageDivisor: 10,
      feedbackWindowMs: 600_000,
      rewardFactorPercent: 5.26,
      penaltyFactorPercent: 5,
      eliminationKeyTtlMs: 9_000_000,
      windowTtlSeconds: 10_000_000,
      decisionContextTtlSeconds: 1800,
      feedbackDedupeTtlSeconds: 1800,
      networkFees: defaultNetworkFeeTable,
    });
  });

  it('is frozen so no caller changes the shared defaults', () => {
    expect(Object.isFrozen(defaultRoutingDefaults)).toBe(true);
    expect(Object.isFrozen(defaultNetworkFeeTable.networkFee)).toBe(true);
  });
});
