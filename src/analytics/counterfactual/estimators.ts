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
 * Intervals are normal 95 % intervals whose standard error is dependence-aware: decisions are not
 * independent (a gateway's success-rate window carries from one decision to the next, so a run of
 * failures moves many later choices together), so the standard error is the larger of the
 * independent one (SNIPS by the delta method) and a seeded circular block bootstrap over time
 * (blocks of consecutive decisions keep their dependence; see `blockBootstrapStandardError`). The
 * samples must be in decision order. The effective sample size is (Σw)²/Σw², the number of
 * on-policy samples the weighted ones are worth.
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

/** The block bootstrap's knobs: replicates, and the seed of its draws (the same logs give the same interval). */
export interface BootstrapOptions {
  readonly replicates: number;
  readonly seed: number;
  /** Decisions per block; default: `defaultBlockLength(n)`. */
  readonly blockLength?: number;
}

export const defaultBootstrapOptions: BootstrapOptions = { replicates: 200, seed: 0x5eed };

/**
 * Decisions per block: 2√n, at least 1. Long enough to hold the time a window state persists at the
 * bucket sizes in use (tens to a few hundred decisions; bench/counterfactual-study.mjs measures the
 * resulting coverage), short enough to leave ~√n/2 blocks to resample.
 */
export function defaultBlockLength(n: number): number {
  return Math.max(1, Math.min(n, Math.round(2 * Math.sqrt(n))));
}

export function estimate(samples: readonly Sample[], bootstrap: BootstrapOptions = defaultBootstrapOptions): Estimates {
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
    ips: meanEstimate(ipsTerms, bootstrap),
    snips: withValue(snipsValue, Math.max(standardErrorOf(snipsTerms, 0), blockBootstrapStandardError(ipsTerms, weights, bootstrap))),
    doublyRobust: meanEstimate(drTerms, bootstrap),
    effectiveSampleSize: weightSquares > 0 ? (weightSum * weightSum) / weightSquares : 0,
    samples: n,
    meanWeight,
  };
}

/**
 * The plain mean with its normal interval (also the logging policy's own on-policy value); the
 * standard error is dependence-aware unless `bootstrap` is null.
 */
export function meanEstimate(terms: readonly number[], bootstrap: BootstrapOptions | null = defaultBootstrapOptions): Estimate {
  const mean = sum(terms) / terms.length;
  const independent = standardErrorOf(terms, mean);
  if (bootstrap === null) return withValue(mean, independent);
  return withValue(
    mean,
    Math.max(
      independent,
      blockBootstrapStandardError(
        terms,
        terms.map(() => 1),
        bootstrap,
      ),
    ),
  );
}

/**
 * The standard error of Σnumerators / Σdenominators by a circular block bootstrap over time
 * (Politis and Romano): each replicate strings together ⌈n/L⌉ blocks of L consecutive samples,
 * each starting at a uniformly drawn sample (wrapping at the end), and the ratio is taken over
 * them; the answer is the replicates' standard deviation. Draws come from a seeded generator, so the
 * same samples always give the same answer. 0 for fewer than two samples or two blocks.
 */
export function blockBootstrapStandardError(numerators: readonly number[], denominators: readonly number[], options: BootstrapOptions): number {
  const n = numerators.length;
  const blockLength = Math.max(1, Math.min(n, Math.round(options.blockLength ?? defaultBlockLength(n))));
  const blocks = Math.ceil(n / blockLength);
  if (n < 2 || blocks < 2 || options.replicates < 2) return 0;
  // Prefix sums over the samples twice over, so a wrapping block is one subtraction.
  const prefixNumerator = new Float64Array(2 * n + 1);
  const prefixDenominator = new Float64Array(2 * n + 1);
  for (let index = 0; index < 2 * n; index += 1) {
    prefixNumerator[index + 1] = (prefixNumerator[index] as number) + (numerators[index % n] as number);
    prefixDenominator[index + 1] = (prefixDenominator[index] as number) + (denominators[index % n] as number);
  }
  const random = seededRandom(options.seed);
  let total = 0;
  let squares = 0;
  let counted = 0;
  for (let replicate = 0; replicate < options.replicates; replicate += 1) {
    let numerator = 0;
    let denominator = 0;
    for (let block = 0; block < blocks; block += 1) {
      const start = Math.floor(random() * n);
      numerator += (prefixNumerator[start + blockLength] as number) - (prefixNumerator[start] as number);
      denominator += (prefixDenominator[start + blockLength] as number) - (prefixDenominator[start] as number);
    }
    if (denominator === 0) continue;
    const value = numerator / denominator;
    total += value;
    squares += value * value;
    counted += 1;
  }
  if (counted < 2) return 0;
  const mean = total / counted;
  return Math.sqrt(Math.max(0, (squares - counted * mean * mean) / (counted - 1)));
}

/** mulberry32: a small seeded generator for the bootstrap's draws. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
