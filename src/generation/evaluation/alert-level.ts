import type { AlertLevel } from '../generate-result.js';

const rank: Readonly<Record<AlertLevel, number>> = { none: 0, low: 1, medium: 2, high: 3 };

/**
 * Deterministic alert rules: overall ≤ 3 → high, ≤ 5 → medium, ≤ 7 → low, else none; an
 * off-topic answer is at least medium whatever its scores.
 */
export function alertLevelFor(overall: number, isOffTopic: boolean): AlertLevel {
  const byScore: AlertLevel = overall <= 3 ? 'high' : overall <= 5 ? 'medium' : overall <= 7 ? 'low' : 'none';
  return isOffTopic && rank[byScore] < rank.medium ? 'medium' : byScore;
}
