/**
 * `priority_logic_output` of a decision. Its keys are camelCase on the wire too (decision-engine
 * serialises this struct without renaming), so the API can emit it as is.
 */
export interface PriorityLogicOutput {
  readonly isEnforcement: boolean;
  readonly gws: readonly string[];
  readonly priorityLogicTag: string | null;
  readonly gatewayReferenceIds: Readonly<Record<string, string>>;
  /** Outcome of a priority-logic script; null because no script runner exists (§3.1 step 7). */
  readonly primaryLogic: Readonly<Record<string, unknown>> | null;
  readonly fallbackLogic: Readonly<Record<string, unknown>> | null;
}

/** The output for a given priority list; SR decisions list the eligible gateways, PL ones nothing. */
export function priorityLogicOutputOf(gws: readonly string[], priorityLogicTag: string | null = null): PriorityLogicOutput {
  return { isEnforcement: false, gws, priorityLogicTag, gatewayReferenceIds: {}, primaryLogic: null, fallbackLogic: null };
}
