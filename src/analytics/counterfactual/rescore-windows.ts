import type { LoggedDecision } from './logged-decision.js';

/**
 * The candidates' scores of every decision under another bucket size, rebuilt from the outcomes the
 * logged data itself holds: a gateway's window under bucket B is its last B outcomes in that window
 * dimension that had arrived before the decision. When the data holds fewer than B such outcomes,
 * the rest of the window is filled at the logged score (what the live window said), so early
 * decisions in the range lean on the logged scores and later ones on the replay.
 *
 * A decision logged with this bucket size keeps its logged scores exactly; a decision without SR
 * scoring (bucketSize null) keeps its priority scores.
 */
export function rescoreForBucket(decisions: readonly LoggedDecision[], bucketSize: number): readonly (readonly number[])[] {
  const outcomes = outcomeHistory(decisions);
  return decisions.map((decision) => {
    const logged = decision.candidates.map((candidate) => candidate.score);
    if (decision.bucketSize === null || decision.bucketSize === bucketSize) return logged;
    return decision.candidates.map((candidate, index) => {
      const history = outcomes.get(keyOf(decision.windowDimension, candidate.gateway));
      const known = history === undefined ? [] : lastBefore(history, decision.decidedAtMs, bucketSize);
      let successes = 0;
      for (const outcome of known) successes += outcome;
      return (successes + (logged[index] as number) * (bucketSize - known.length)) / bucketSize;
    });
  });
}

interface Outcome {
  readonly atMs: number;
  readonly success: 0 | 1;
}

function keyOf(windowDimension: string, gateway: string): string {
  return `${windowDimension}\u0000${gateway}`;
}

/** Outcomes per (window dimension, gateway), by arrival time. */
function outcomeHistory(decisions: readonly LoggedDecision[]): Map<string, Outcome[]> {
  const history = new Map<string, Outcome[]>();
  for (const decision of decisions) {
    if (decision.success === null || decision.outcomeAtMs === null || decision.windowDimension === '') continue;
    const key = keyOf(decision.windowDimension, decision.gateway);
    let list = history.get(key);
    if (list === undefined) {
      list = [];
      history.set(key, list);
    }
    list.push({ atMs: decision.outcomeAtMs, success: decision.success ? 1 : 0 });
  }
  for (const list of history.values()) list.sort((a, b) => a.atMs - b.atMs);
  return history;
}

/** The last `count` outcomes that arrived strictly before `atMs` (binary search on arrival time). */
function lastBefore(history: readonly Outcome[], atMs: number, count: number): (0 | 1)[] {
  let low = 0;
  let high = history.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((history[middle] as Outcome).atMs < atMs) low = middle + 1;
    else high = middle;
  }
  return history.slice(Math.max(0, low - count), low).map((outcome) => outcome.success);
}
