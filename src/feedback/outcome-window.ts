import type { WindowRead } from '../ports/state-store.js';

/** One recorded outcome: 1 success, 0 failure. */
export type Outcome = 0 | 1;

/**
 * The window update every ScoreStore adapter must realise (§3.3, §4.2): a window that does not
 * exist is first seeded with `bucketSize` successes (so one early failure cannot sink a gateway),
 * then the outcome is pushed at the head and only the newest `bucketSize` are kept.
 * Returns a new array, newest first; adapters may use it directly or mirror it (e.g. in Lua).
 */
export function pushOutcome(window: readonly Outcome[] | undefined, outcome: Outcome, bucketSize: number): Outcome[] {
  const previous = window ?? new Array<Outcome>(bucketSize).fill(1);
  const next: Outcome[] = [outcome];
  const keep = Math.min(previous.length, bucketSize - 1);
  for (let index = 0; index < keep; index += 1) next.push(previous[index] as Outcome);
  return next;
}

/** What a read of the newest `bucketSize` outcomes of `window` (newest first) returns. */
export function readOutcomeWindow(window: readonly Outcome[], bucketSize: number): WindowRead {
  const length = Math.min(window.length, bucketSize);
  let successes = 0;
  for (let index = 0; index < length; index += 1) successes += window[index] as Outcome;
  return { successes, length };
}
