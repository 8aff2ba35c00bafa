/**
 * Always-valid two-sample test on means: the mixture sequential probability ratio test (mSPRT) of
 * Johari, Pekelis and Walsh ("Always valid inference", 2017/2022), with a normal mixture over the
 * difference of the arms' means. Pure.
 *
 * With θ̂ = variant mean − control mean, s² = σ²_c/n_c + σ²_v/n_v its variance, and a N(0, τ²)
 * mixture over the true difference θ, the mixture likelihood ratio against θ = 0 is
 *
 *     Λ = √(s² / (s² + τ²)) · exp(τ² θ̂² / (2 s² (s² + τ²)))
 *
 * Under θ = 0, Λ is (asymptotically) a martingale with mean 1, so by Ville's inequality
 * P(Λ ever ≥ 1/α) ≤ α: the test may be read after every payment, on every page load or on a
 * schedule, and the chance that it ever rejects a true null stays at most α. The always-valid
 * p-value is min(1, 1/Λ); the 95 % confidence sequence is every θ₀ the same test does not reject
 * (θ̂ ± the half-width below), so it covers the true difference at all looks at once.
 *
 * τ is set in units of the per-payment standard deviation (τ = r·σ̄, σ̄² = (σ²_c + σ²_v)/2): a
 * mixture over standardised effects, so one r serves auth rates (0/1) and EV (bps) alike. r = 0.2
 * puts the test's power where a guardrail needs it (drops of several percentage points of a rate
 * around 0.8–0.9, found within a few hundred payments per arm).
 */
import type { SampleMoments } from './two-sample-z-test.js';

export interface SequentialTestOptions {
  /** Significance level (the bound on ever rejecting a true null). */
  readonly alpha: number;
  /** The mixture's standard deviation in per-payment standard deviations (r). */
  readonly mixtureEffectSd: number;
}

export const defaultSequentialTestOptions: SequentialTestOptions = { alpha: 0.05, mixtureEffectSd: 0.2 };

export interface SequentialTestResult {
  /** variant mean − control mean. */
  readonly delta: number;
  /** √s²: the standard error of the delta. */
  readonly standardError: number;
  /** The mixture likelihood ratio Λ against "no difference". */
  readonly likelihoodRatio: number;
  /** Always-valid p-value: min(1, 1/Λ). Below α ⇔ the confidence sequence excludes 0. */
  readonly pValue: number;
  /** The always-valid (1 − α) confidence sequence of the delta at this look. */
  readonly confidenceInterval: readonly [number, number];
}

/**
 * The test of variant against control at this look; undefined when either arm has no variance
 * estimate (fewer than two observations) or both variances are 0 (nothing to test).
 */
export function mixtureSequentialTest(
  control: SampleMoments,
  variant: SampleMoments,
  options: SequentialTestOptions = defaultSequentialTestOptions,
): SequentialTestResult | undefined {
  const delta = variant.mean - control.mean;
  const s2 = control.variance / control.n + variant.variance / variant.n;
  const tau2 = options.mixtureEffectSd * options.mixtureEffectSd * ((control.variance + variant.variance) / 2);
  if (!(s2 > 0) || !(tau2 > 0) || !Number.isFinite(s2)) return undefined;
  const logRatio = 0.5 * Math.log(s2 / (s2 + tau2)) + (tau2 * delta * delta) / (2 * s2 * (s2 + tau2));
  const halfWidth = Math.sqrt(((2 * s2 * (s2 + tau2)) / tau2) * (Math.log(1 / options.alpha) + 0.5 * Math.log((s2 + tau2) / s2)));
  return {
    delta,
    standardError: Math.sqrt(s2),
    likelihoodRatio: Math.exp(Math.min(logRatio, 700)),
    pValue: Math.min(1, Math.exp(-logRatio)),
    confidenceInterval: [delta - halfWidth, delta + halfWidth],
  };
}

/**
 * The moments of a 0/1 sample for the sequential test: the observed rate as the mean and the
 * Bernoulli variance of the add-one smoothed rate ((s + 1) / (n + 2)), so a small arm with every
 * payment approved (or every one declined) does not claim a variance of 0, which would make any
 * difference look certain. Undefined below two observations.
 */
export function proportionMoments(n: number, successes: number): SampleMoments | undefined {
  if (n < 2) return undefined;
  const smoothed = (successes + 1) / (n + 2);
  return { n, mean: successes / n, variance: smoothed * (1 - smoothed) };
}
