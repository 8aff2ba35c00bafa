import { describe, expect, it } from 'vitest';
import { experimentStatistics } from '../../../src/experiments/experiment-verdict.js';
import { mixtureSequentialTest, proportionMoments } from '../../../src/experiments/sequential-test.js';
import { momentsOf, twoSampleZTest } from '../../../src/experiments/two-sample-z-test.js';
import type { ExperimentArmFacts } from '../../../src/ports/analytics/experiment-reports.js';
import { seededRandom } from '../../../bench/lib/seeded-random.mjs';

function arm(name: 'control' | 'variant', resolved: number, successes: number): ExperimentArmFacts {
  return {
    arm: name,
    assigned: resolved,
    resolved,
    successes,
    firstAttemptSuccesses: successes,
    avgLatencyMs: null,
    costPayments: 0,
    chosenCostBpsSum: 0,
    costSavedBpsSum: 0,
    savedSuccessSum: 0,
    savedSuccessSquareSum: 0,
    totalCostSaved: 0,
  };
}

interface Simulation {
  readonly experiments: number;
  readonly perArm: number;
  readonly looks: number;
  readonly controlRate: number;
  readonly variantRate: number;
  readonly seed: number;
}

const thresholds = { minSampleSize: 20, guardrailThresholdPp: 2, evaluationMargin: 1 };

/**
 * Runs `experiments` experiments of `perArm` payments per arm (outcomes drawn one by one), reading
 * the verdict at `looks` evenly spaced points (the last at the end), as the scheduled guardrail and
 * every page load would. Counts the experiments where any look said something other than
 * collecting_data / not_significant (an alarm), and where any look tripped the guardrail; with the
 * fixed-horizon z-test read at the same looks beside it.
 */
function simulate(simulation: Simulation) {
  const random = seededRandom(simulation.seed);
  const step = simulation.perArm / simulation.looks;
  let alarms = 0;
  let guardrailTrips = 0;
  let fixedHorizonAlarms = 0;
  let tripPayments = 0;
  for (let experiment = 0; experiment < simulation.experiments; experiment += 1) {
    let control = 0;
    let variant = 0;
    let nextLook = 1;
    let alarmed = false;
    let tripped = false;
    let fixedAlarmed = false;
    for (let n = 1; n <= simulation.perArm; n += 1) {
      if (random() < simulation.controlRate) control += 1;
      if (random() < simulation.variantRate) variant += 1;
      if (n < Math.round(nextLook * step)) continue;
      nextLook += 1;
      const statistics = experimentStatistics(arm('control', n, control), arm('variant', n, variant), thresholds);
      if (statistics.verdict !== 'collecting_data' && statistics.verdict !== 'not_significant') alarmed = true;
      if (statistics.verdict === 'guardrail_breached' && !tripped) {
        tripped = true;
        tripPayments += n;
      }
      const c = momentsOf(n, control, control);
      const v = momentsOf(n, variant, variant);
      const fixed = c && v && n >= thresholds.minSampleSize ? twoSampleZTest(c, v) : undefined;
      if (fixed !== undefined && fixed.pValue < 0.05) fixedAlarmed = true;
    }
    if (alarmed) alarms += 1;
    if (tripped) guardrailTrips += 1;
    if (fixedAlarmed) fixedHorizonAlarms += 1;
  }
  const experiments = simulation.experiments;
  return {
    alarmRate: alarms / experiments,
    guardrailRate: guardrailTrips / experiments,
    fixedHorizonAlarmRate: fixedHorizonAlarms / experiments,
    meanTripPayments: guardrailTrips === 0 ? Number.NaN : tripPayments / guardrailTrips,
  };
}

describe('mixtureSequentialTest', () => {
  it('rejects exactly when its confidence sequence excludes 0, and is wider than the fixed-horizon interval', () => {
    const control = proportionMoments(1000, 850) as NonNullable<ReturnType<typeof proportionMoments>>;
    for (const successes of [850, 870, 880, 890, 900, 910, 950]) {
      const variant = proportionMoments(1000, successes) as NonNullable<ReturnType<typeof proportionMoments>>;
      const test = mixtureSequentialTest(control, variant);
      if (test === undefined) throw new Error('no test');
      const [low, high] = test.confidenceInterval;
      expect(test.pValue < 0.05, `variant ${successes}`).toBe(low > 0 || high < 0);
      const fixed = twoSampleZTest(control, variant);
      if (fixed === undefined) throw new Error('no z-test');
      expect(high - low).toBeGreaterThan(fixed.confidenceInterval[1] - fixed.confidenceInterval[0]);
      expect(test.pValue).toBeGreaterThanOrEqual(fixed.pValue);
    }
  });

  it('has no test without variance, and smooths an arm that is all successes', () => {
    expect(mixtureSequentialTest({ n: 10, mean: 1, variance: 0 }, { n: 10, mean: 1, variance: 0 })).toBeUndefined();
    expect(proportionMoments(1, 1)).toBeUndefined();
    const allApproved = proportionMoments(20, 20);
    expect(allApproved?.variance).toBeGreaterThan(0);
    // 20/20 against 19/20 is no evidence of anything.
    const test = mixtureSequentialTest(allApproved as NonNullable<typeof allApproved>, proportionMoments(20, 19) as NonNullable<typeof allApproved>);
    expect(test?.pValue).toBe(1);
  });
});

describe('the verdict and guardrail under repeated looks (seeded simulations)', () => {
  // 2,000 A/A experiments: a 5 % false-alarm rate has a standard error of 0.5 points here, so a test
  // that inflated it to 7 % or more with looks would fail.
  const aa = { experiments: 2000, perArm: 1000, controlRate: 0.85, variantRate: 0.85 };

  it.each([1, 10, 100])(
    'A/A: at most 5 %% of experiments ever alarm with %i look(s)',
    (looks) => {
      const result = simulate({ ...aa, looks, seed: 1000 + looks });
      expect(result.alarmRate).toBeLessThanOrEqual(0.05);
      expect(result.guardrailRate).toBeLessThanOrEqual(0.05);
      if (looks === 100) {
        // The same looks at the fixed-horizon z-test alarm far more often: the simulation can see inflation.
        expect(result.fixedHorizonAlarmRate).toBeGreaterThan(0.1);
      }
      // Seeded and pure: a few hundred ms alone, more on a loaded machine.
    },
    30_000,
  );

  it('A/A with every payment a look at a low rate: still at most 5 %', () => {
    const result = simulate({ experiments: 400, perArm: 1000, controlRate: 0.5, variantRate: 0.5, looks: 1000, seed: 77 });
    expect(result.alarmRate).toBeLessThanOrEqual(0.05);
  }, 30_000);

  it('power: a variant 10 points worse (90 % → 80 %) trips the guardrail in nearly every experiment, within a few hundred payments per arm', () => {
    const result = simulate({ experiments: 500, perArm: 1000, controlRate: 0.9, variantRate: 0.8, looks: 50, seed: 5 });
    expect(result.guardrailRate).toBeGreaterThanOrEqual(0.95);
    expect(result.meanTripPayments).toBeLessThan(500);
  }, 30_000);

  it('power: a variant 5 points better (80 % → 85 %) is called a win in most experiments of 2,000 payments per arm', () => {
    const random = seededRandom(9);
    let wins = 0;
    const experiments = 300;
    for (let experiment = 0; experiment < experiments; experiment += 1) {
      let control = 0;
      let variant = 0;
      for (let n = 0; n < 2000; n += 1) {
        if (random() < 0.8) control += 1;
        if (random() < 0.85) variant += 1;
      }
      if (experimentStatistics(arm('control', 2000, control), arm('variant', 2000, variant), thresholds).verdict === 'variant_wins') wins += 1;
    }
    expect(wins / experiments).toBeGreaterThanOrEqual(0.8);
  }, 30_000);
});
