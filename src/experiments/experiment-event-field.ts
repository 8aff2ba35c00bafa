import type { Decision } from '../decision/decision.js';
import type { ExperimentTag } from './enter-experiment.js';

/** decision.created's `experiment` object (schemas/events/decision.created.v1.json). */
export interface ExperimentEventField extends ExperimentTag {
  /** The chosen gateway's processing cost in bps of the ticket, when the cost-aware post-step priced it. */
  readonly chosenCostBps: number | null;
  /** Fee saved against the SR head in bps (COST_WON), 0 when the head was kept, null without cost data. */
  readonly costSavedBps: number | null;
}

/** The additive `experiment` field; absent for payments outside an experiment. */
export function experimentFieldOf(tag: ExperimentTag | undefined, decision: Decision): { experiment?: ExperimentEventField } {
  if (tag === undefined) return {};
  return { experiment: { ...tag, ...costOf(decision) } };
}

/**
 * HOOK (cost-aware post-step): reads the post-step's `multiObjectiveInfo` from the decision when it
 * carries one, with the peer's field names (`chosen.costBps`, `costSavedBps`). Until the post-step
 * sets it, every decision is cost-less and experiments are judged on auth rate.
 */
function costOf(decision: Decision): Pick<ExperimentEventField, 'chosenCostBps' | 'costSavedBps'> {
  const info = (decision as { readonly multiObjectiveInfo?: unknown }).multiObjectiveInfo;
  if (typeof info !== 'object' || info === null) return { chosenCostBps: null, costSavedBps: null };
  const record = info as { readonly chosen?: { readonly costBps?: unknown } | null; readonly costSavedBps?: unknown };
  const chosen = typeof record.chosen?.costBps === 'number' && Number.isFinite(record.chosen.costBps) ? record.chosen.costBps : null;
  const saved = typeof record.costSavedBps === 'number' && Number.isFinite(record.costSavedBps) ? record.costSavedBps : chosen === null ? null : 0;
  return { chosenCostBps: chosen, costSavedBps: saved };
}
