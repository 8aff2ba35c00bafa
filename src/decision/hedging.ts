import type { RandomSource } from './random-source.js';
import { bestScoreIndex } from './best-score-index.js';

/**
 * Volume hedging (§3.3): draws u ∈ [0, 100); when u < `hedgingPercent` the current top gateway
 * (ties → listed first) scores 0.5 and every other gateway 1.0, so one of the others wins and the
 * top gateway's rivals keep receiving traffic and feedback. Otherwise scores are untouched.
 *
 * Rewrites `scores` in place (the decision path owns the array; no copy on the hot path) and
 * returns whether it hedged, in which case the approach becomes SR_V3_HEDGING.
 * Exactly one draw per call, so scripted tests know what each draw decides.
 */
export function applyVolumeHedging(scores: number[], hedgingPercent: number, random: RandomSource): boolean {
  const u = random.next() * 100;
  if (!(u < hedgingPercent) || scores.length < 2) return false;
  const top = bestScoreIndex(scores);
  for (let index = 0; index < scores.length; index += 1) scores[index] = index === top ? 0.5 : 1;
  return true;
}
