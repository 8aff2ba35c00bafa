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
  const order = Array.from({ length: scores.length }, (_, index) => index);
  order.sort((a, b) => (scores[b] as number) - (scores[a] as number));
  return order;
}
