import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM module of the bench, without types
import { fixedGateways, runLiveStudy, seededRandom, simulate, trueValue } from '../../../bench/lib/counterfactual-sim.mjs';
import { candidateProbabilities } from '../../../src/analytics/counterfactual/candidate-policy.js';
import { blockBootstrapStandardError, defaultBootstrapOptions, meanEstimate } from '../../../src/analytics/counterfactual/estimators.js';
import { evaluateCounterfactual } from '../../../src/analytics/counterfactual/evaluate-counterfactual.js';
import type { LoggedDecision } from '../../../src/analytics/counterfactual/logged-decision.js';
import { rescoreForBucket, rescoreWindows } from '../../../src/analytics/counterfactual/rescore-windows.js';
import { pickIndex, propensityOf } from '../../../src/decision/policy/decision-policy.js';
import type { FeeEstimate } from '../../../src/ports/state/cost-model.js';

const lib = { pickIndex, propensityOf, evaluateCounterfactual, candidateProbabilities, rescoreForBucket };
const gateways = fixedGateways() as { gateway: string; rate: number; fee: FeeEstimate }[];
const fees = new Map(gateways.map((gateway) => [gateway.gateway, gateway.fee]));
const stationary = (gateway: { rate: number }) => gateway.rate;
const logging = { bucketSize: 50, hedgingPercent: 10, eliminationThreshold: 0.05, multiObjective: false, margin: 1 };

function logs(seed: number, n: number, policy = logging): LoggedDecision[] {
  return simulate({ random: seededRandom(seed), gateways, n, policy, lib, fees, rate: stationary, warmup: 1000 }).logged;
}

describe('block bootstrap standard error', () => {
  it('is deterministic, near the independent one for independent terms, and larger for runs of correlated terms', () => {
    const random = seededRandom(3) as () => number;
    const independent = Array.from({ length: 2000 }, () => (random() < 0.8 ? 1 : 0));
    const ones = independent.map(() => 1);
    const options = { replicates: 200, seed: 1 };
    expect(blockBootstrapStandardError(independent, ones, options)).toBe(blockBootstrapStandardError(independent, ones, options));
    const iid = meanEstimate(independent, null).standardError;
    expect(blockBootstrapStandardError(independent, ones, options) / iid).toBeGreaterThan(0.75);
    expect(blockBootstrapStandardError(independent, ones, options) / iid).toBeLessThan(1.3);
    // A success rate that holds for stretches of 100 decisions: the same marginal, far more spread.
    const stretches: number[] = [];
    for (let stretch = 0; stretch < 20; stretch += 1) {
      const rate = random() < 0.5 ? 0.7 : 0.9;
      for (let index = 0; index < 100; index += 1) stretches.push(random() < rate ? 1 : 0);
    }
    const correlated = blockBootstrapStandardError(stretches, ones, options);
    expect(correlated / meanEstimate(stretches, null).standardError).toBeGreaterThan(1.5);
    // The reported standard error is the larger of the two.
    const reported = blockBootstrapStandardError(stretches, ones, defaultBootstrapOptions);
    expect(meanEstimate(stretches).standardError).toBe(Math.max(reported, meanEstimate(stretches, null).standardError));
    expect(meanEstimate(stretches).standardError).toBeGreaterThan(1.5 * meanEstimate(stretches, null).standardError);
  });
});

describe('rescoring windows for another bucket size', () => {
  it('scores a sparse window from its real outcomes, not the stale logged score, and says how many entries are real', () => {
    const decisions = logs(1, 1500);
    // The rarely chosen gateway's logged (bucket 50) window still holds seeded successes.
    const gammaLogged = decisions.map((decision) => decision.candidates[2]?.score as number);
    expect(Math.max(...gammaLogged.slice(-200))).toBeGreaterThan(0.75);
    const { scores, coverage } = rescoreWindows(decisions, 200);
    expect(coverage).not.toBeNull();
    expect(coverage?.bucketSize).toBe(200);
    expect(coverage?.windowReads).toBe(decisions.length * 3);
    expect(coverage?.realEntryShare).toBeGreaterThan(0.3);
    expect(coverage?.realEntryShare).toBeLessThan(1);
    // Where gamma has at least 10 real outcomes the rescored score is their mean, near its true 0.60.
    const gammaOutcomes = decisions.filter((decision) => decision.gateway === 'gamma');
    if (gammaOutcomes.length >= 10) {
      const last = scores.at(-1)?.[2] as number;
      expect(last).toBeLessThan(0.75);
    }
    // The logged bucket size keeps the logged scores exactly, and reports no rescoring.
    expect(rescoreWindows(decisions, 50).coverage).toBeNull();
    expect(rescoreWindows(decisions, 50).scores[10]).toEqual(decisions[10]?.candidates.map((candidate) => candidate.score));
  });
});

describe('evaluateCounterfactual', () => {
  it('estimates bucket-size candidates when the logging policy explores, with one recommended estimate and a sentence', () => {
    for (const bucketSize of [25, 200]) {
      const result = evaluateCounterfactual(logs(2, 3000), { ...logging, bucketSize }, fees);
      expect(result.supported, `${bucketSize}: ${result.message}`).toBe(true);
      expect(result.rescoring?.realEntryShare).toBeGreaterThan(0);
      expect(result.recommended?.estimator).toBe('doubly_robust');
      expect(result.recommended?.value).toBe(result.successRate?.doublyRobust.value);
      expect(result.explanation).toMatch(/^Doubly robust: \d+\.\d % \(95 % interval/);
    }
  });

  it('answers an elimination-threshold candidate with the logged rate and says why, not an estimate', () => {
    const decisions = logs(3, 1000);
    const result = evaluateCounterfactual(decisions, { ...logging, eliminationThreshold: 0.9 }, fees);
    expect(result).toMatchObject({ supported: true, sameAsLogging: true });
    expect(result.recommended?.estimator).toBe('logged');
    expect(result.recommended?.value).toBe(result.logged.successRate?.value);
    expect(result.explanation).toMatch(/success and failure feedback never move a gateway’s elimination score/);
    expect(result.explanation).toMatch(/not an estimate/);
  });

  it('on cost-aware logs (known truth): IPS, SNIPS and DR agree with the truth, IPS no longer tens of points apart', () => {
    // Cost-aware logging with hedging 20 %: the decision path logs a hedged decision's propensity as
    // the hedge share alone even when the cost step would have chosen the same gateway unhedged.
    const costAware = { ...logging, hedgingPercent: 20, multiObjective: true, margin: 0.1 };
    const candidate = { ...costAware, hedgingPercent: 5 };
    let covered = 0;
    const runs = 12;
    for (let run = 1; run <= runs; run += 1) {
      const decisions = simulate({ random: seededRandom(run), gateways, n: 1500, policy: costAware, lib, fees, rate: stationary, warmup: 500 }).logged;
      const truth = trueValue({ logged: decisions, gateways, n: 1500, config: candidate, fees, lib, rate: stationary }).successRate as number;
      const result = evaluateCounterfactual(decisions, candidate, fees);
      if (!result.supported || result.successRate === null) continue;
      const { ips, snips, doublyRobust } = result.successRate;
      expect(Math.abs(ips.value - doublyRobust.value), `run ${run}`).toBeLessThan(0.03);
      expect(Math.abs(snips.value - doublyRobust.value), `run ${run}`).toBeLessThan(0.02);
      expect(Math.abs(result.successRate.meanWeight - 1)).toBeLessThan(0.15);
      if (doublyRobust.ci95[0] <= truth && truth <= doublyRobust.ci95[1]) covered += 1;
    }
    expect(covered).toBeGreaterThanOrEqual(runs - 2);
  }, 30_000);

  it('counts the SR head of a cost-aware decision that promoted another gateway as a choice the logs never made', () => {
    const costAware = { ...logging, hedgingPercent: 20, multiObjective: true, margin: 0.1 };
    const decisions = simulate({ random: seededRandom(4), gateways, n: 800, policy: costAware, lib, fees, rate: stationary, warmup: 500 })
      .logged as LoggedDecision[];
    const promoted = decisions.filter(
      (decision) => !decision.hedged && decision.gateway !== decision.candidates[pickIndex(decision.candidates, decision, false)]?.gateway,
    );
    expect(promoted.length).toBeGreaterThan(40);
    const result = evaluateCounterfactual(decisions, { ...costAware, multiObjective: false }, fees);
    expect(result.unsupportedShare).toBeGreaterThan(0.05);
    expect(result).toMatchObject({ supported: false, reason: 'no_overlap' });
  });

  it('explains a disagreement of the estimators by the importance weights when their mean is off 1', () => {
    // Logs whose propensities are recorded too high for the hedged branch: the weights average below 1.
    const decisions = logs(5, 2000).map((decision) => (decision.hedged ? { ...decision, propensity: Math.min(1, decision.propensity * 3) } : decision));
    const result = evaluateCounterfactual(decisions, { ...logging, hedgingPercent: 40 }, fees);
    expect(result.supported).toBe(true);
    expect(result.explanation).toMatch(/differ by more than their noise explains/);
    expect(result.explanation).toMatch(/importance weights average 0\.\d\d instead of 1/);
  });
});

describe('live study (short): intervals cover the true live rate of hedging and bucket-size candidates', () => {
  it('covers in at least 90 % of 30 runs of 1,500 decisions, stationary world', () => {
    const summaries = runLiveStudy({
      world: 'stationary',
      runs: 30,
      n: 1500,
      liveRuns: 30,
      warmup: 1000,
      logging,
      candidates: [
        { name: 'hedging 0 %', config: { ...logging, hedgingPercent: 0 } },
        { name: 'bucket 200', config: { ...logging, bucketSize: 200 } },
      ],
      lib,
    }) as { name: string; supportedRuns: number; recommendedCoverage: number }[];
    for (const summary of summaries) {
      expect(summary.supportedRuns, summary.name).toBeGreaterThanOrEqual(27);
      expect(summary.recommendedCoverage, summary.name).toBeGreaterThanOrEqual(0.9);
    }
    // Pure and seeded: ~3 s alone, longer on a loaded machine.
  }, 60_000);
});
