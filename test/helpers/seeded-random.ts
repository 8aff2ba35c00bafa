import type { RandomSource } from '../../src/decision/random-source.js';
import { seededRandom } from '../../bench/lib/seeded-random.mjs';

/**
 * A seeded PRNG (bench/lib/seeded-random.mjs: mulberry32, 32-bit state, full period 2^32) as a
 * RandomSource, for statistical and property tests, so a failing run replays exactly. Not for
 * production: the service uses mathRandom.
 */
export function createSeededRandom(seed: number): RandomSource {
  return { next: seededRandom(seed) };
}
