// Types of median-interval.mjs for its unit test.

export function medianInterval(
  values: readonly number[],
  options?: { readonly level?: number; readonly resamples?: number; readonly seed?: number },
): { readonly median: number; readonly low: number; readonly high: number };

export function lowerMedian(values: readonly number[]): number;
