import { describe, expect, it } from 'vitest';
import type { LoggedDecision } from '../../../../src/analytics/counterfactual/logged-decision.js';
import { estimatePostStepPrice } from '../../../../src/analytics/counterfactual/post-step-price.js';

let sequence = 0;
/** A decision between stripe (score 0.9) and adyen (0.8): routing's pick is stripe. */
function decision(gateway: string, routingApproach: string, success: boolean | null, windowDimension = 'card'): LoggedDecision {
  sequence += 1;
  return {
    id: `d${sequence}`,
    decidedAtMs: sequence,
    gateway,
    routingApproach,
    windowDimension,
    amount: 100,
    propensity: 0.95,
    hedged: false,
    hedgingPercent: 5,
    bucketSize: 100,
    eliminationThreshold: null,
    eliminationDivisor: 1,
    multiObjective: false,
    candidates: [
      { gateway: 'stripe', score: 0.9, eliminationScore: null },
      { gateway: 'adyen', score: 0.8, eliminationScore: null },
    ],
    success,
    outcomeAtMs: success === null ? null : sequence,
  };
}
const many = (count: number, make: () => LoggedDecision) => Array.from({ length: count }, make);

describe('estimatePostStepPrice', () => {
  it('prices sticky pins by routing’s pick on the payments left alone, per routing dimension', () => {
    const decisions = [
      // card: stripe approves 8 of 8 left alone; two pins to adyen, one approved.
      ...many(8, () => decision('stripe', 'SR_SELECTION_V3_ROUTING', true)),
      decision('adyen', 'STICKY_ROUTING', true),
      decision('adyen', 'STICKY_ROUTING', false),
      // A pin that kept routing's pick moved nothing; a steered payment is another post-step's.
      decision('stripe', 'STICKY_ROUTING', true),
      decision('adyen', 'SR_SELECTION_VOLUME_COMMITMENT', false),
      // upi: stripe approves 0 of 2 there, so a pin away from it there gains.
      ...many(2, () => decision('stripe', 'SR_SELECTION_V3_ROUTING', false, 'upi')),
      decision('adyen', 'STICKY_ROUTING', true, 'upi'),
      // No outcome yet: counted as moved, not priced.
      decision('adyen', 'STICKY_ROUTING', null),
    ];
    const price = estimatePostStepPrice(decisions, 'without_sticky_routing');
    expect(price).toMatchObject({ decisions: 16, labelled: 15, moved: 4, movedLabelled: 3, supported: true, loggedSuccessRate: 11 / 15 });
    // The pin that kept stripe moved nothing: it counts with the payments left alone (9 of 9).
    const card = 10 / 11;
    const upi = 1 / 4;
    const value = (card - 1 + (card - 0) + (upi - 1)) / 15;
    expect(price.rateGivenUp?.value).toBeCloseTo(value, 12);
    expect(price.scoreGapAtDecision).toBeCloseTo((3 * 0.1) / 15, 12);
    const [low, high] = price.rateGivenUp?.ci95 ?? [0, 0];
    expect(low).toBeLessThan(value);
    expect(high).toBeGreaterThan(value);
    expect(high - value).toBeCloseTo(value - low, 12);
  });

  it('refuses when routing’s pick has no outcome outside the moved payments', () => {
    const price = estimatePostStepPrice(
      [decision('adyen', 'SR_SELECTION_VOLUME_COMMITMENT', true), decision('adyen', 'SR_SELECTION_V3_ROUTING', true)],
      'without_volume_commitment',
    );
    expect(price).toMatchObject({ supported: false, reason: 'no_outcomes_for_head', rateGivenUp: null });
    expect(price.message).toContain('stripe');
  });

  it('answers no_logged_decisions and no_outcomes', () => {
    expect(estimatePostStepPrice([], 'without_volume_commitment').reason).toBe('no_logged_decisions');
    expect(estimatePostStepPrice([decision('stripe', 'SR_SELECTION_V3_ROUTING', null)], 'without_volume_commitment').reason).toBe('no_outcomes');
  });
});
