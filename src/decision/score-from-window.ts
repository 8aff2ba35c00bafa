import type { WindowRead } from '../ports/state-store.js';

/**
 * A gateway's success rate from its window: successes over the outcomes actually held (a window
 * shorter than its bucket is averaged over its length), clamped to [0, 1]. No history ⇒ 1.0, the
 * optimistic default that lets an unseen gateway compete (§3.3, §12.3).
 */
export function scoreFromWindow(window: WindowRead | undefined): number {
  if (window === undefined || !(window.length > 0)) return 1;
  const score = window.successes / window.length;
  if (!(score > 0)) return 0;
  return Math.min(score, 1);
}
