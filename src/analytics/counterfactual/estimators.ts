/**
 * Off-policy value estimators over logged bandit feedback (pure math, no I/O).
 *
 * Each sample is one logged decision with a known outcome: the action the logging policy took, its
 * probability under the logging policy (μ), the target policy's probability of every action (π),
 * the reward, and the direct model's predicted reward of every action (q̂).
 *
 * - IPS: V = mean(w·r), w = π(a)/μ(a). Unbiased when μ > 0 wherever π > 0.
 * - SNIPS: V = Σ w·r / Σ w. Slightly biased, much lower variance.
 * - DR: V = mean(Σₐ π(a)·q̂(a) + w·(r − q̂(a))). Unbiased if either μ or q̂ is right.
 *
 * Intervals are normal 95 % intervals from the per-sample terms (SNIPS by the delta method); the
 * effective sample size is (Σw)²/Σw², the number of on-policy samples the weighted ones are worth.
 */
export interface Sample {
  readonly action: string;
  readonly reward: number;
  /** μ(action): the logged propensity. */
  readonly loggingProbability: number;
  /** π(a) for every action with π(a) > 0. */
  readonly target: ReadonlyMap<string, number>;
  /** q̂(a) for every action the target may take (and the logged action). */
  readonly predicted: ReadonlyMap<string, number>;
}

export interface Estimate {
  readonly value: number;
  readonly standardError: number;
  readonly ci95: readonly [number, number];
}

export interface Estimates {
  readonly ips: Estimate;
  readonly snips: Estimate;
  readonly doublyRobust: Estimate;
  readonly effectiveSampleSize: number;
  readonly samples: number;
  /** Mean importance weight (1 in expectation; far from 1 means the weights are unreliable). */
  readonly meanWeight: number;
}

export const z95 = 1.959963984540054;

export function estimate(samples: readonly Sample[]): Estimates {
  const n = samples.length;
  if (n === 0) throw new RangeError('no samples to estimate from');
  const weights = samples.map((sample) => (sample.target.get(sample.action) ?? 0) / sample.loggingProbability);
  const ipsTerms = samples.map((sample, index) => (weights[index] as number) * sample.reward);
  const drTerms = samples.map((sample, index) => {
    let direct = 0;
    for (const [action, probability] of sample.target) direct += probability * (sample.predicted.get(action) ?? 0);
    const residual = sample.reward - (sample.predicted.get(sample.action) ?? 0);
    return direct + (weights[index] as number) * residual;
  });
  const weightSum = sum(weights);
  const weightSquares = sum(weights.map((weight) => weight * weight));
  const snipsValue = weightSum > 0 ? sum(ipsTerms) / weightSum : 0;
  const meanWeight = weightSum / n;
  const snipsTerms = samples.map((sample, index) => ((weights[index] as number) * (sample.reward - snipsValue)) / (meanWeight > 0 ? meanWeight : 1));
  return {
    ips: meanEstimate(ipsTerms),
    snips: withValue(snipsValue, standardErrorOf(snipsTerms, 0)),
    doublyRobust: meanEstimate(drTerms),
    effectiveSampleSize: weightSquares > 0 ? (weightSum * weightSum) / weightSquares : 0,
    samples: n,
    meanWeight,
  };
}

/** The plain mean with its normal interval (also the logging policy's own on-policy value). */
export function meanEstimate(terms: readonly number[]): Estimate {
  const mean = sum(terms) / terms.length;
  return withValue(mean, standardErrorOf(terms, mean));
}

function withValue(value: number, standardError: number): Estimate {
  return { value, standardError, ci95: [value - z95 * standardError, value + z95 * standardError] };
}

/** sd/√n around `center` (the sample standard deviation, n − 1). 0 for one sample. */
function standardErrorOf(terms: readonly number[], center: number): number {
  const n = terms.length;
  if (n < 2) return 0;
  let squares = 0;
  for (const term of terms) squares += (term - center) * (term - center);
  // For SNIPS the terms are centred by construction, so the mean of the terms is ~0 around 0.
  return Math.sqrt(squares / (n - 1) / n);
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
