import { algorithmForValues, type ActiveRoutingAlgorithms } from '../ports/state-store.js';

/**
 * The ids of a merchant's active mapping in the order evaluation tries them: `payment` first (what
 * /routing/evaluate and decisions route), then payout and 3DS. decision-engine takes "the first
 * mapper row", which in practice is the payment one.
 */
export function activeIdsInOrder(active: ActiveRoutingAlgorithms): string[] {
  const ids: string[] = [];
  for (const kind of algorithmForValues) {
    const id = active[kind];
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids;
}
