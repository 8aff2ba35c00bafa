import type { RandomSource } from '../decision/random-source.js';
import type { ConnectorInfo } from '../ports/state/routing-algorithm.js';

/**
 * Picks an index with probability weight/total using ONE draw from `random`: the first index whose
 * running total exceeds `draw × total`. Zero weights are never picked. If every weight is zero (only
 * possible for an algorithm that skipped parseRoutingAlgorithm, which requires a sum of 100) the
 * first entry wins rather than dividing by zero.
 */
export function pickWeightedIndex(weights: readonly number[], total: number, random: RandomSource): number {
  const target = random.next() * total;
  let running = 0;
  for (let index = 0; index < weights.length; index++) {
    running += weights[index] as number;
    if (target < running) return index;
  }
  return 0;
}

/** The reference's volume-split order: the winner first, then the others in their original order. */
export function winnerFirst<T>(items: readonly T[], winner: number): T[] {
  const ordered: T[] = [items[winner] as T];
  for (let index = 0; index < items.length; index++) if (index !== winner) ordered.push(items[index] as T);
  return ordered;
}

/** Flattens connector lists in order, keeping the first occurrence of each (name, id) pair. */
export function flattenDistinct(lists: readonly (readonly ConnectorInfo[])[]): ConnectorInfo[] {
  const seen = new Set<string>();
  const out: ConnectorInfo[] = [];
  for (const list of lists) {
    for (const connector of list) {
      const key = JSON.stringify([connector.gateway_name, connector.gateway_id]);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(connector);
    }
  }
  return out;
}
