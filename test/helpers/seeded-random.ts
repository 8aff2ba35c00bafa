import type { RandomSource } from '../../src/decision/random-source.js';

/**
 * A seeded PRNG (mulberry32: 32-bit state, full period 2^32) for statistical and property tests, so
 * a failing run replays exactly. Not for production: the service uses mathRandom.
 */
export function createSeededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return {
    next: () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}
