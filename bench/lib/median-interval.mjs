import { seededRandom } from './seeded-random.mjs';

/**
 * The median of `values` and a bootstrap interval for it: `resamples` draws of as many values with
 * replacement, each draw's median, and the `level` central share of those medians. The median is the
 * lower one of an even count, as decide-bench reports it. Draws come from a seeded generator, so the
 * same values print the same interval.
 *
 * Why: a row's median round moves by several points between runs, and a median alone does not say
 * whether 89 % and 91 % are two readings of one cost. The interval covers the rounds' spread within
 * a run only; a machine that is slower for a whole run moves the run, interval and all.
 */
export function medianInterval(values, { level = 0.95, resamples = 2000, seed = 1 } = {}) {
  if (values.length === 0) throw new Error('medianInterval needs at least one value');
  if (!(level > 0 && level < 1)) throw new Error(`level takes a fraction in (0, 1); got ${level}`);
  if (!Number.isInteger(resamples) || resamples < 1) throw new Error(`resamples takes a whole number ≥ 1; got ${resamples}`);
  const random = seededRandom(seed);
  const draw = new Array(values.length);
  const medians = new Array(resamples);
  for (let resample = 0; resample < resamples; resample++) {
    for (let index = 0; index < values.length; index++) draw[index] = values[Math.floor(random() * values.length)];
    medians[resample] = lowerMedian(draw);
  }
  medians.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return {
    median: lowerMedian(values),
    low: medians[Math.floor(tail * (resamples - 1))],
    high: medians[Math.ceil((1 - tail) * (resamples - 1))],
  };
}

/** The middle value, the lower of the two middle ones for an even count (decide-bench's median round). */
export function lowerMedian(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
