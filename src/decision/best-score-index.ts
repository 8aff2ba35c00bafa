/**
 * Index of the highest score; ties go to the lowest index. Candidates are kept in the merchant's
 * eligible-list order, so ties resolve to the gateway listed first: deterministic, where upstream
 * used hash-map order (§12.4 allows list order).
 * -1 for an empty list.
 */
export function bestScoreIndex(scores: readonly number[]): number {
  let best = -1;
  let bestScore = -Infinity;
  for (let index = 0; index < scores.length; index += 1) {
    const score = scores[index] as number;
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Candidate indexes by descending score, ties in list order (Array.prototype.sort is stable).
 * The first entry equals {@link bestScoreIndex}.
 */
export function rankByScore(scores: readonly number[]): number[] {
  // An insertion sort on a plain array (a decision has a handful of candidates): stable like
  // Array.prototype.sort, without Array.from's iteration protocol or a comparator closure per call.
  // Made at its length: an array filled from empty gets room for 17 at its first element.
  const order: number[] = new Array(scores.length);
  for (let index = 0; index < scores.length; index += 1) {
    const score = scores[index] as number;
    let at = index;
    while (at > 0 && (scores[order[at - 1] as number] as number) < score) {
      order[at] = order[at - 1] as number;
      at -= 1;
    }
    order[at] = index;
  }
  return order;
}
