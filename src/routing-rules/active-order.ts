import { algorithmForValues, experimentSlotOf, type ActiveRoutingAlgorithms } from '../ports/state-store.js';

/** Built once: a decision reads its merchant's active rules through this on every call. */
const slotsInOrder = [...algorithmForValues, ...algorithmForValues.map(experimentSlotOf)];

/**
 * The ids of a merchant's active mapping in the order evaluation tries them: the rule slots first,
 * `payment` first (what /routing/evaluate and decisions route), then payout and 3DS; then the
 * experiment slots. decision-engine takes "the first mapper row", which in practice is the payment
 * one; the experiment beside it is found by its type (src/experiments/enter-experiment.ts).
 */
export function activeIdsInOrder(active: ActiveRoutingAlgorithms): string[] {
  const ids: string[] = [];
  for (const slot of slotsInOrder) {
    const id = active[slot];
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids;
}
