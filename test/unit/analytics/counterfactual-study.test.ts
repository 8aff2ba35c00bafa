import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM module of the bench, without types
import { runStudy } from '../../../bench/lib/counterfactual-sim.mjs';
import { candidateProbabilities } from '../../../src/analytics/counterfactual/candidate-policy.js';
import { evaluateCounterfactual } from '../../../src/analytics/counterfactual/evaluate-counterfactual.js';
import { rescoreForBucket } from '../../../src/analytics/counterfactual/rescore-windows.js';
import { pickIndex, propensityOf } from '../../../src/decision/policy/decision-policy.js';

const lib = { pickIndex, propensityOf, evaluateCounterfactual, candidateProbabilities, rescoreForBucket };
const logging = { bucketSize: 50, hedgingPercent: 10, eliminationThreshold: 0.05, multiObjective: false, margin: 1 };

describe('counterfactual study (short): the estimates cover the truth of a policy the logs did not run', () => {
  it('95 % intervals cover the true success rate and EV in at least 90 % of 20 seeds', () => {
    const [greedy, hedgeMore] = runStudy({
      seeds: 20,
      n: 600,
      logging,
      candidates: [
        { name: 'hedging 0 %', config: { ...logging, hedgingPercent: 0 } },
        { name: 'hedging 25 %', config: { ...logging, hedgingPercent: 25 } },
      ],
      lib,
    });
    for (const summary of [greedy, hedgeMore]) {
      expect(summary.supportedSeeds, summary.name).toBe(20);
      expect(summary.success.doublyRobust.coverage, `${summary.name} DR`).toBeGreaterThanOrEqual(0.9);
      expect(summary.success.ips.coverage, `${summary.name} IPS`).toBeGreaterThanOrEqual(0.9);
      expect(summary.success.snips.coverage, `${summary.name} SNIPS`).toBeGreaterThanOrEqual(0.9);
      expect(summary.ev.doublyRobust.coverage, `${summary.name} EV DR`).toBeGreaterThanOrEqual(0.9);
      expect(Math.abs(summary.success.doublyRobust.bias), `${summary.name} bias`).toBeLessThan(0.02);
      expect(summary.effectiveSampleSize).toBeGreaterThan(50);
    }
    // The candidates really differ from the logging policy: fewer hedges, fewer effective samples for more.
    expect(hedgeMore.effectiveSampleSize).toBeLessThan(greedy.effectiveSampleSize);
  });
});
