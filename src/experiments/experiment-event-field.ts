import type { Decision } from '../decision/decision.js';
import type { ExperimentTag } from './enter-experiment.js';

/** decision.created's `experiment` object (schemas/events/decision.created.v1.json). */
export interface ExperimentEventField extends ExperimentTag {
  /** The chosen gateway's processing cost in bps of the ticket, when the cost-aware post-step priced it. */
  readonly chosenCostBps: number | null;
  /** Fee saved against the SR head in bps (COST_WON), 0 when the head was kept, null without cost data. */
  readonly costSavedBps: number | null;
}

/**
 * The additive `experiment` field; undefined for payments outside an experiment. One object, its
 * keys in the order the event has always had (the tag's, then the cost's): analytics finds them in
 * `details` by first occurrence. Built field by field: two spreads into one literal take V8's
 * generic copy, and this runs for every payment in an experiment.
 */
export function experimentFieldOf(tag: ExperimentTag | undefined, decision: Decision): ExperimentEventField | undefined {
  if (tag === undefined) return undefined;
  const chosenCostBps = chosenCostOf(decision);
  return {
    experimentId: tag.experimentId,
    experimentArm: tag.experimentArm,
    armAlgorithmId: tag.armAlgorithmId,
    guardrailTripped: tag.guardrailTripped,
    endpoint: tag.endpoint,
    chosenCostBps,
    costSavedBps: costSavedOf(decision, chosenCostBps),
  };
}

/** The cost post-step's `multiObjectiveInfo` when the decision carries one (the peer's field names: `chosen.costBps`, `costSavedBps`). */
function costInfoOf(decision: Decision): { readonly chosen?: { readonly costBps?: unknown } | null; readonly costSavedBps?: unknown } | undefined {
  const info = (decision as { readonly multiObjectiveInfo?: unknown }).multiObjectiveInfo;
  return typeof info === 'object' && info !== null ? info : undefined;
}

/** The chosen gateway's cost in bps; null without the post-step or its cost data (experiments are then judged on auth rate). */
function chosenCostOf(decision: Decision): number | null {
  const costBps = costInfoOf(decision)?.chosen?.costBps;
  return typeof costBps === 'number' && Number.isFinite(costBps) ? costBps : null;
}

/** The fee saved against the SR head; 0 when the head was kept at a known cost, null without one. */
function costSavedOf(decision: Decision, chosenCostBps: number | null): number | null {
  const saved = costInfoOf(decision)?.costSavedBps;
  return typeof saved === 'number' && Number.isFinite(saved) ? saved : chosenCostBps === null ? null : 0;
}
