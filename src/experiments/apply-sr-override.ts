import type { DecideGatewayRequest } from '../generated/schema-types.js';
import type { SrConfigOverride } from '../ports/state/routing-algorithm.js';
import type { DecisionInputs } from '../decision/decision.js';

/**
 * An `sr_routing` arm's override applied to one decision's inputs: each field set replaces the
 * merchant's live value for this payment only; nothing is written. `activeRules` (when given) are
 * the rules the arm decides with, set in the same copy.
 * - `hedging_percent` becomes the SR config's default and wins over sub-level entries (they lose
 *   their hedging value, keeping their bucket size and latency threshold);
 * - `elimination_threshold` replaces the elimination config's threshold (when elimination runs);
 * - `margin` replaces the SR config's margin (read by the cost-aware post-step);
 * - `enable_multi_objective` sets the request's `enableMultiObjective` (the per-request switch of
 *   the cost-aware post-step, which wins over the merchant flag).
 *
 * @remarks `use_autopilot` is stored with the experiment but not applied per arm: autopilot writes
 * the merchant's config on its own schedule, it is not a per-decision dial.
 */
export function applySrOverride(
  request: DecideGatewayRequest,
  inputs: DecisionInputs,
  override: SrConfigOverride | undefined,
  activeRules: DecisionInputs['activeRules'] = inputs.activeRules,
): { readonly request: DecideGatewayRequest; readonly inputs: DecisionInputs } {
  return { request: srOverrideRequest(request, override), inputs: srOverrideInputs(inputs, override, activeRules) };
}

/** The request as an arm's override leaves it: `enable_multi_objective` sets `enableMultiObjective` (the same request without it). */
export function srOverrideRequest(request: DecideGatewayRequest, override: SrConfigOverride | undefined): DecideGatewayRequest {
  const multiObjective = override?.enable_multi_objective;
  return multiObjective === undefined ? request : { ...request, enableMultiObjective: multiObjective };
}

/**
 * The inputs as an arm's override and rules leave them (the same inputs when neither changes
 * anything). Depends on its arguments alone, so a caller may keep the result per inputs and override.
 */
export function srOverrideInputs(inputs: DecisionInputs, override: SrConfigOverride | undefined, activeRules: DecisionInputs['activeRules']): DecisionInputs {
  if (override === undefined) return activeRules === inputs.activeRules ? inputs : { ...inputs, activeRules };
  let successRate = inputs.successRate;
  if (override.hedging_percent !== undefined) {
    const base = successRate ?? {};
    successRate = {
      ...base,
      defaultHedgingPercent: override.hedging_percent,
      ...(base.subLevelInputConfig ? { subLevelInputConfig: base.subLevelInputConfig.map(({ hedgingPercent: _ignored, ...entry }) => entry) } : {}),
    };
  }
  if (override.margin !== undefined) successRate = { ...(successRate ?? {}), margin: override.margin };
  const elimination =
    override.elimination_threshold === undefined ? inputs.elimination : { ...(inputs.elimination ?? {}), threshold: override.elimination_threshold };
  // One copy of the inputs per arm: the arm's rules, SR and elimination settings together.
  return { ...inputs, activeRules, successRate, elimination };
}
