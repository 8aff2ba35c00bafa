import { describe, expect, it } from 'vitest';
import { benchBucketSize, benchWindowBucket, benchWindowSuccesses, filledWindowsAsked } from '../../../bench/lib/score-windows.mjs';
import { benchSeedCosts } from '../../../bench/lib/cost-step-experiment.mjs';
import { defaultStickySettings } from '../../../src/decision/sticky/sticky-settings.js';

const gateways = Object.keys(benchWindowSuccesses) as (keyof typeof benchWindowSuccesses)[];
const costBps = Object.fromEntries(benchSeedCosts.rows.map((row) => [row.psp, row.interchange_bps]));
const score = (gateway: keyof typeof benchWindowSuccesses) => benchWindowSuccesses[gateway] / benchBucketSize;
/** Expected value at a margin (fraction of the ticket), as the cost step ranks: auth rate × (margin − cost). */
const ev = (gateway: keyof typeof benchWindowSuccesses, margin: number) => score(gateway) * (margin - (costBps[gateway] as number) / 10_000);

describe('the benches’ filled success-rate windows', () => {
  it('hold one bucket with each gateway’s successes, its failures spread over it', () => {
    const bucket = benchWindowBucket();
    expect(bucket).toHaveLength(benchBucketSize);
    for (const gateway of gateways) {
      const outcomes = bucket.map((slot) => slot[gateway]);
      expect(outcomes.filter(Boolean)).toHaveLength(benchWindowSuccesses[gateway]);
      // Evenly: no run of successes longer than the bucket over its failures (rounded up).
      const failures = benchBucketSize - benchWindowSuccesses[gateway];
      const longestRun = Math.max(
        ...outcomes
          .map(String)
          .join('')
          .split('false')
          .map((run) => run.split('true').length - 1),
      );
      expect(longestRun).toBeLessThanOrEqual(Math.ceil(benchBucketSize / failures));
    }
  });

  it('keep the rows’ behaviour: stripe is the SR head, checkout wins on expected value at margin 1 and 0.5, adyen passes the sticky veto', () => {
    expect(gateways.toSorted((a, b) => score(b) - score(a))).toEqual(['stripe', 'checkout', 'adyen']);
    for (const margin of [1, 0.5]) {
      expect(ev('checkout', margin)).toBeGreaterThan(ev('stripe', margin));
      expect(ev('checkout', margin)).toBeGreaterThan(ev('adyen', margin));
    }
    // A pin on a gateway scoring under minScoreRatio of the top is vetoed (apply-sticky-routing.ts).
    expect(score('adyen') / score('stripe')).toBeGreaterThanOrEqual(defaultStickySettings.minScoreRatio);
  });

  it('are asked for by SR_WINDOWS=filled only; empty is the default, and another value is refused', () => {
    expect(filledWindowsAsked({ SR_WINDOWS: 'filled' })).toBe(true);
    expect(filledWindowsAsked({ SR_WINDOWS: 'empty' })).toBe(false);
    expect(filledWindowsAsked({})).toBe(false);
    expect(() => filledWindowsAsked({ SR_WINDOWS: 'full' })).toThrow('SR_WINDOWS takes filled or empty; got "full"');
  });
});
