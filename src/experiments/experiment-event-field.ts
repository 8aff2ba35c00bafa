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
  // The cost post-step's `multiObjectiveInfo` when the decision carries one, with the peer's field
  // names; without it (or its cost data) the payment is cost-less and judged on auth rate.
  const info = decision.multiObjectiveInfo;
  const chosenCostBps = finiteOrNull(info?.chosen?.costBps);
  return {
    experimentId: tag.experimentId,
    experimentArm: tag.experimentArm,
    armAlgorithmId: tag.armAlgorithmId,
    guardrailTripped: tag.guardrailTripped,
    endpoint: tag.endpoint,
    chosenCostBps,
    // 0 when the head was kept at a known cost.
    costSavedBps: finiteOrNull(info?.costSavedBps) ?? (chosenCostBps === null ? null : 0),
  };
}

const finiteOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
