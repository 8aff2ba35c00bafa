/**
 * Where routing gets its randomness (volume hedging). Injected so tests can script every draw
 * and so a decision never reaches for a global generator.
 */
export interface RandomSource {
  /** A number in [0, 1). */
  next(): number;
}

/** The production source. Not cryptographic: hedging only needs an even spread, not secrecy. */
export const mathRandom: RandomSource = { next: () => Math.random() };

/**
 * A source that returns `values` in order, for exact tests. Running past the end throws, because a
 * test that draws more often than it planned is asserting the wrong thing.
 */
export function createSequenceRandom(values: readonly number[]): RandomSource & { readonly drawn: () => number } {
  for (const value of values) {
    if (!(value >= 0 && value < 1)) throw new RangeError(`sequence random values must be in [0, 1), got ${value}`);
  }
  let index = 0;
  return {
    next: () => {
      const value = values[index];
      if (value === undefined) throw new RangeError(`sequence random exhausted after ${values.length} draws`);
      index += 1;
      return value;
    },
    drawn: () => index,
  };
}
