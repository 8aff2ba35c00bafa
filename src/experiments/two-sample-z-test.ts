/**
 * Two-sample z-test on means (unpooled variances), the test behind experiment verdicts. Pure.
 * For 0/1 outcomes (auth) the per-arm variance is p(1 − p)·n/(n − 1), which makes this the
 * unpooled two-proportion test.
 */

/** One sample's size, mean and (sample, n − 1) variance. */
export interface SampleMoments {
  readonly n: number;
  readonly mean: number;
  readonly variance: number;
}

export interface ZTestResult {
  /** variant mean − control mean. */
  readonly delta: number;
  readonly standardError: number;
  readonly z: number;
  /** Two-sided. */
  readonly pValue: number;
  /** 95 % interval of the delta (± 1.959964 standard errors). */
  readonly confidenceInterval: readonly [number, number];
}

/** z of a two-sided 95 % interval. */
const z95 = 1.959963984540054;

/** Moments from a count, a sum and a sum of squares; undefined below two observations. */
export function momentsOf(n: number, sum: number, sumOfSquares: number): SampleMoments | undefined {
  if (n < 2) return undefined;
  const mean = sum / n;
  return { n, mean, variance: Math.max(0, (sumOfSquares - n * mean * mean) / (n - 1)) };
}

/** The test of variant against control; undefined when the standard error is 0 (nothing to test). */
export function twoSampleZTest(control: SampleMoments, variant: SampleMoments): ZTestResult | undefined {
  const delta = variant.mean - control.mean;
  const standardError = Math.sqrt(control.variance / control.n + variant.variance / variant.n);
  if (!(standardError > 0) || !Number.isFinite(standardError)) return undefined;
  const z = delta / standardError;
  return {
    delta,
    standardError,
    z,
    pValue: twoSidedPValue(z),
    confidenceInterval: [delta - z95 * standardError, delta + z95 * standardError],
  };
}

/** P(|Z| ≥ |z|) for a standard normal Z. */
export function twoSidedPValue(z: number): number {
  return Math.min(1, erfc(Math.abs(z) / Math.SQRT2));
}

/**
 * Complementary error function, Chebyshev fit (Numerical Recipes `erfcc`): fractional error below
 * 1.2e-7 everywhere, enough for p-values compared with 0.05.
 */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}
