import type { LoggedDecision } from './logged-decision.js';

/** How much of the rescored windows the range's own outcomes filled (the rest leaned on logged scores). */
export interface RescoreCoverage {
  readonly bucketSize: number;
  /** Candidate windows rescored: one per candidate of each decision logged with another bucket size. */
  readonly windowReads: number;
  /** Mean share of a rescored window's `bucketSize` entries that are real outcomes from the range. */
  readonly realEntryShare: number;
  /** Share of rescored windows made entirely of real outcomes. */
  readonly fullWindowShare: number;
}

/**
 * Outcomes a window needs before its score is theirs alone: below this many, the missing entries
 * (up to this many) are filled at the logged score, so one early failure does not read as a 0.
 */
export const minRealEntries = 10;

/**
 * The candidates' scores of every decision under another bucket size, rebuilt from the outcomes the
 * logged data itself holds: a gateway's window under bucket B is its last B outcomes in that window
 * dimension that had arrived before the decision. With k of them known:
 * - k ≥ min(B, 10): the score is the mean of the last min(k, B) real outcomes. A sparse window is
 *   *not* filled with the logged score: for a rarely chosen gateway the logged window holds old
 *   or seeded entries (a live window starts full of successes), and filling with it made a gateway
 *   at a true 0.60 read 0.83, so the candidate seemed to pick gateways the logger never did;
 * - 0 < k < min(B, 10): k real outcomes plus min(B, 10) − k entries at the logged score;
 * - k = 0: the logged score (nothing better is known).
 *
 * A decision logged with this bucket size keeps its logged scores exactly; a decision without SR
 * scoring (bucketSize null) keeps its priority scores. `coverage` says how many of the rescored
 * windows' entries were real (null when no decision needed rescoring).
 */
export function rescoreWindows(
  decisions: readonly LoggedDecision[],
  bucketSize: number,
): { readonly scores: readonly (readonly number[])[]; readonly coverage: RescoreCoverage | null } {
  const outcomes = outcomeHistory(decisions);
  const floor = Math.min(bucketSize, minRealEntries);
  let reads = 0;
  let realEntries = 0;
  let full = 0;
  const scores = decisions.map((decision) => {
    const logged = decision.candidates.map((candidate) => candidate.score);
    if (decision.bucketSize === null || decision.bucketSize === bucketSize) return logged;
    return decision.candidates.map((candidate, index) => {
      const history = outcomes.get(keyOf(decision.windowDimension, candidate.gateway));
      const known = history === undefined ? [] : lastBefore(history, decision.decidedAtMs, bucketSize);
      reads += 1;
      realEntries += known.length / bucketSize;
      if (known.length >= bucketSize) full += 1;
      if (known.length === 0) return logged[index] as number;
      let successes = 0;
      for (const outcome of known) successes += outcome;
      if (known.length >= floor) return successes / known.length;
      return (successes + (logged[index] as number) * (floor - known.length)) / floor;
    });
  });
  const coverage = reads === 0 ? null : { bucketSize, windowReads: reads, realEntryShare: realEntries / reads, fullWindowShare: full / reads };
  return { scores, coverage };
}

/** The rescored scores alone (rescoreWindows without its coverage). */
export function rescoreForBucket(decisions: readonly LoggedDecision[], bucketSize: number): readonly (readonly number[])[] {
  return rescoreWindows(decisions, bucketSize).scores;
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
