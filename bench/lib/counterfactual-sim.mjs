// Counterfactual-evaluation simulator: synthetic gateways with known, drifting success rates and fees,
// routed by the real decision rule (success-rate windows, volume hedging, elimination replayed by the
// functions passed in `lib`), so every estimate can be checked against the truth.
//
// `lib` is { pickIndex, propensityOf } from src/decision/policy/decision-policy and { evaluateCounterfactual,
// candidateProbabilities, rescoreForBucket } from src/analytics/counterfactual/ (the TypeScript sources under vitest, dist/
// under node), so the study exercises exactly the code that serves POST /analytics/counterfactual.

import { seededRandom } from './seeded-random.mjs';

// Re-exported for the study's tests, which seed their own draws.
export { seededRandom };

/** Three gateways: success rates that drift (sine waves crossing each other) and fees (bps + fixed). */
export function syntheticGateways(random) {
  const gateways = [
    { gateway: 'alpha', base: 0.86, amplitude: 0.06, fee: { pctBps: 290, fixed: 0.3 } },
    { gateway: 'beta', base: 0.82, amplitude: 0.07, fee: { pctBps: 180, fixed: 0.2 } },
    { gateway: 'gamma', base: 0.78, amplitude: 0.08, fee: { pctBps: 120, fixed: 0.1 } },
  ];
  return gateways.map((gateway) => ({ ...gateway, phase: random() * 2 * Math.PI }));
}

/** The success probability of a gateway at step t of n (one and a half periods over the run). */
export function successProbability(gateway, t, n) {
  return gateway.base + gateway.amplitude * Math.sin((3 * Math.PI * t) / n + gateway.phase);
}

/**
 * Runs one policy live for n decisions over the gateways: windows of the last `bucketSize` outcomes
 * per gateway (seeded full of successes, as the score store does) carried from one decision to the
 * next, the hedging draw, and elimination scores as the feedback path moves them: a success raises
 * the score (×1.0526, capped at 1) and a success or failure never lowers it (only the pending
 * statuses PENDING_VBV and STARTED do, which the simulation does not send), elimination on for every
 * decision. `rate(gateway, t, n)` is the success probability (default: the drifting sine).
 * Returns the logged decisions (LoggedDecision shape) and the realised rewards.
 */
export function simulate({ random, gateways, n, policy, lib, fees, rate = successProbability, warmup = 0 }) {
  const windows = gateways.map(() => Array(policy.bucketSize).fill(1));
  const sums = gateways.map(() => policy.bucketSize);
  const heads = gateways.map(() => 0);
  const elimination = gateways.map(() => 1);
  const logged = [];
  let successes = 0;
  let value = 0;
  // `warmup` decisions before the first logged one move the windows but are neither logged nor counted.
  for (let t = -warmup; t < n; t += 1) {
    const amount = Math.round(20 + 180 * random() * 100) / 100;
    const candidates = gateways.map((gateway, index) => ({
      gateway: gateway.gateway,
      score: sums[index] / policy.bucketSize,
      eliminationScore: elimination[index],
    }));
    const parameters = { hedgingPercent: policy.hedgingPercent, eliminationThreshold: policy.eliminationThreshold, eliminationDivisor: 5 };
    const hedged = random() * 100 < policy.hedgingPercent;
    let chosen = lib.pickIndex(candidates, parameters, hedged);
    if (policy.multiObjective && !hedged) chosen = costPick(candidates, parameters, chosen, amount, policy.margin, fees);
    const gateway = gateways[chosen];
    const success = random() < rate(gateway, Math.max(t, 0), n);
    const outcome = success ? 1 : 0;
    sums[chosen] += outcome - windows[chosen][heads[chosen]];
    windows[chosen][heads[chosen]] = outcome;
    heads[chosen] = (heads[chosen] + 1) % policy.bucketSize;
    if (success) elimination[chosen] = Math.min(1, elimination[chosen] * 1.0526);
    if (t < 0) continue;
    successes += success ? 1 : 0;
    const settlement = amount * policy.margin - (amount * gateway.fee.pctBps) / 10_000 - gateway.fee.fixed;
    value += success ? settlement : 0;
    const log = { candidates, ...parameters, bucketSize: policy.bucketSize, hedged };
    logged.push({
      id: `d${t}`,
      decidedAtMs: t * 1000,
      gateway: gateway.gateway,
      windowDimension: 'sim',
      amount,
      propensity: lib.propensityOf(log, gateway.gateway),
      hedged,
      hedgingPercent: policy.hedgingPercent,
      bucketSize: policy.bucketSize,
      eliminationThreshold: policy.eliminationThreshold,
      eliminationDivisor: 5,
      multiObjective: policy.multiObjective,
      candidates,
      success,
      outcomeAtMs: t * 1000 + 500,
    });
  }
  return { logged, successRate: successes / n, ev: value / n };
}

/** The EV post-step as the decision runs it: strictly higher score × settlement value wins. */
function costPick(candidates, parameters, head, amount, margin, fees) {
  const final = (candidate) =>
    candidate.eliminationScore < parameters.eliminationThreshold ? candidate.score / parameters.eliminationDivisor : candidate.score;
  const settlement = (candidate) => {
    const fee = fees.get(candidate.gateway);
    return amount * margin - (amount * fee.pctBps) / 10_000 - fee.fixed;
  };
  let best = head;
  let bestEv = final(candidates[head]) * settlement(candidates[head]);
  candidates.forEach((candidate, index) => {
    const ev = final(candidate) * settlement(candidate);
    if (ev > bestEv) {
      best = index;
      bestEv = ev;
    }
  });
  return best;
}

/**
 * The truth the estimators aim at: the candidate's expected success rate and EV on the logged
 * decisions (its exact action probabilities there × the known success probabilities).
 */
export function trueValue({ logged, gateways, n, config, fees, lib, rate = successProbability }) {
  let success = 0;
  let ev = 0;
  // Every outcome of the run is in the log, so the candidate's windows under its bucket size replay exactly
  // (bar the optimistic seed of the first windows).
  const scores = lib.rescoreForBucket(logged, config.bucketSize);
  logged.forEach((decision, t) => {
    const probabilities = lib.candidateProbabilities(decision, scores[t], config, fees);
    for (const [name, probability] of probabilities) {
      const gateway = gateways.find((entry) => entry.gateway === name);
      const p = rate(gateway, t, n);
      success += probability * p;
      ev += probability * p * (decision.amount * config.margin - (decision.amount * gateway.fee.pctBps) / 10_000 - gateway.fee.fixed);
    }
  });
  return { successRate: success / logged.length, ev: ev / logged.length };
}

/**
 * The study: for each seed, log n decisions under `logging`, estimate each candidate, and compare
 * with its true value on those decisions and with its own live (on-policy) run over the same drift.
 * Returns one summary per candidate.
 */
export function runStudy({ seeds, n, logging, candidates, lib }) {
  const summaries = candidates.map((candidate) => ({ ...candidate, runs: [] }));
  for (let seed = 1; seed <= seeds; seed += 1) {
    const gateways = syntheticGateways(seededRandom(seed * 7919));
    const fees = new Map(gateways.map((gateway) => [gateway.gateway, gateway.fee]));
    const { logged, successRate: loggedRate } = simulate({ random: seededRandom(seed), gateways, n, policy: logging, lib, fees });
    for (const summary of summaries) {
      const { config } = summary;
      const truth = trueValue({ logged, gateways, n, config, fees, lib });
      const live = simulate({
        random: seededRandom(seed + 100_000),
        gateways,
        n,
        policy: { ...config, eliminationThreshold: config.eliminationThreshold },
        lib,
        fees,
      });
      const result = lib.evaluateCounterfactual(logged, config, fees);
      summary.runs.push({ seed, truth, live, loggedRate, result });
    }
  }
  return summaries.map(summarise);
}

const covers = (estimate, truth) => estimate.ci95[0] <= truth && truth <= estimate.ci95[1];
const mean = (values) => (values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length);

function summarise(summary) {
  const supported = summary.runs.filter((run) => run.result.supported);
  const metric = (pick, truthOf) => {
    const pairs = supported.map((run) => ({ estimate: pick(run.result), truth: truthOf(run) })).filter((pair) => pair.estimate != null);
    return {
      runs: pairs.length,
      coverage: mean(pairs.map((pair) => (covers(pair.estimate, pair.truth) ? 1 : 0))),
      bias: mean(pairs.map((pair) => pair.estimate.value - pair.truth)),
      meanAbsError: mean(pairs.map((pair) => Math.abs(pair.estimate.value - pair.truth))),
      ciWidth: mean(pairs.map((pair) => pair.estimate.ci95[1] - pair.estimate.ci95[0])),
    };
  };
  return {
    name: summary.name,
    seeds: summary.runs.length,
    supportedSeeds: supported.length,
    reasons: [...new Set(summary.runs.filter((run) => !run.result.supported).map((run) => run.result.reason))],
    effectiveSampleSize: mean(supported.map((run) => run.result.effectiveSampleSize)),
    truthSuccessRate: mean(summary.runs.map((run) => run.truth.successRate)),
    liveSuccessRate: mean(summary.runs.map((run) => run.live.successRate)),
    loggedSuccessRate: mean(summary.runs.map((run) => run.loggedRate)),
    success: {
      ips: metric(
        (result) => result.successRate?.ips,
        (run) => run.truth.successRate,
      ),
      snips: metric(
        (result) => result.successRate?.snips,
        (run) => run.truth.successRate,
      ),
      doublyRobust: metric(
        (result) => result.successRate?.doublyRobust,
        (run) => run.truth.successRate,
      ),
      liveDoublyRobust: metric(
        (result) => result.successRate?.doublyRobust,
        (run) => run.live.successRate,
      ),
    },
    ev: {
      doublyRobust: metric(
        (result) => result.ev?.doublyRobust,
        (run) => run.truth.ev,
      ),
      snips: metric(
        (result) => result.ev?.snips,
        (run) => run.truth.ev,
      ),
    },
  };
}

/**
 * Fixed worlds for the live study: the gateways' success rates are known and the same in every run,
 * so each candidate's true rate (its expected live success rate) is one number per world.
 * `stationary`: alpha 0.90, beta 0.86, gamma 0.60 (a gateway the logging policy rarely picks, so its
 * window stays sparse and stale). `degrading`: the same, alpha falling to 0.70 halfway through.
 */
export const liveWorlds = {
  stationary: { rate: (gateway) => gateway.rate },
  degrading: { rate: (gateway, t, n) => (gateway.gateway === 'alpha' && t >= n / 2 ? 0.7 : gateway.rate) },
};

export function fixedGateways() {
  return [
    { gateway: 'alpha', rate: 0.9, fee: { pctBps: 290, fixed: 0.3 } },
    { gateway: 'beta', rate: 0.86, fee: { pctBps: 180, fixed: 0.2 } },
    { gateway: 'gamma', rate: 0.6, fee: { pctBps: 120, fixed: 0.1 } },
  ];
}

/**
 * The live study (issue 37 point 6): in a fixed world, `runs` logging runs of n decisions under
 * `logging`; each candidate estimated from each run's logs, and its 95 % interval checked against
 * the candidate's true rate: its expected success rate live in that world, the mean of `liveRuns`
 * live runs of its own (its windows carried from decision to decision as the logging policy's are).
 * Returns one summary per candidate: coverage of the true rate by the recommended (DR) interval, by
 * IPS and SNIPS, the recommended estimate's bias, spread (standard deviation across runs) and mean
 * reported standard error, and how often it was supported (with the reasons when not).
 */
export function runLiveStudy({ world, runs, n, liveRuns, logging, candidates, lib, warmup = 0 }) {
  const gateways = fixedGateways();
  const fees = new Map(gateways.map((gateway) => [gateway.gateway, gateway.fee]));
  const { rate } = liveWorlds[world];
  const truths = candidates.map(({ config }) => {
    let total = 0;
    for (let run = 0; run < liveRuns; run += 1) {
      total += simulate({ random: seededRandom(900_000 + run), gateways, n, policy: config, lib, fees, rate, warmup }).successRate;
    }
    return total / liveRuns;
  });
  const results = candidates.map(() => []);
  let loggedTotal = 0;
  for (let run = 1; run <= runs; run += 1) {
    const { logged, successRate } = simulate({ random: seededRandom(run * 104_729), gateways, n, policy: logging, lib, fees, rate, warmup });
    loggedTotal += successRate;
    candidates.forEach(({ config }, index) => {
      results[index].push(lib.evaluateCounterfactual(logged, config, fees));
    });
  }
  return candidates.map((candidate, index) => {
    const truth = truths[index];
    const all = results[index];
    const supported = all.filter((result) => result.supported);
    const coverage = (pick) => {
      const estimates = supported.map(pick).filter((estimate) => estimate != null);
      return mean(estimates.map((estimate) => (estimate.ci95[0] <= truth && truth <= estimate.ci95[1] ? 1 : 0)));
    };
    const values = supported.map((result) => result.recommended.value);
    const center = mean(values);
    return {
      name: candidate.name,
      runs: all.length,
      supportedRuns: supported.length,
      reasons: [...new Set(all.filter((result) => !result.supported).map((result) => result.reason))],
      sameAsLoggingRuns: supported.filter((result) => result.sameAsLogging).length,
      truth,
      loggedRate: loggedTotal / runs,
      recommendedCoverage: coverage((result) => result.recommended),
      drCoverage: coverage((result) => result.successRate?.doublyRobust),
      ipsCoverage: coverage((result) => result.successRate?.ips),
      snipsCoverage: coverage((result) => result.successRate?.snips),
      bias: center - truth,
      spread: Math.sqrt(mean(values.map((value) => (value - center) ** 2))),
      meanStandardError: mean(supported.map((result) => result.recommended.standardError)),
      meanIpsDrGap: mean(supported.map((result) => Math.abs(result.successRate.ips.value - result.successRate.doublyRobust.value))),
      realEntryShare: mean(supported.filter((result) => result.rescoring !== null).map((result) => result.rescoring.realEntryShare)),
      effectiveSampleSize: mean(supported.map((result) => result.effectiveSampleSize)),
    };
  });
}
