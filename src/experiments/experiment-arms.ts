import {
  experimentEndpoints,
  srRoutingArm,
  type AbTestData,
  type ExperimentArmLayers,
  type ExperimentEndpoint,
  type SrConfigOverride,
} from '../ports/state/routing-algorithm.js';
import { assignArm, type ExperimentArm } from './assign-arm.js';

/**
 * Layered arms and what each endpoint applies of them (decision-engine #434, `arms.rs`):
 *
 * | endpoint                          | layers applied |
 * |-----------------------------------|----------------|
 * | /routing/hybrid                   | rule + SR      |
 * | /decide-gateway, /decision_gateway| rule + SR      |
 * | /routing/evaluate                 | rule           |
 *
 * The peer applies only the SR layer on /decide-gateway because its /decide-gateway never runs a
 * rule; ours applies the merchant's active rule there, so an arm's rule layer takes that rule's
 * place, as on /routing/hybrid. Traffic splits on an endpoint only when it is in the experiment's
 * scope and the two arms differ there; everywhere else the payment is outside the experiment
 * (the active rule and the live SR settings route it, nothing is attributed), so an experiment that
 * only changes SR settings never runs an A/A test on /routing/evaluate.
 */

/** An arm's layers as one endpoint applies them. `rule` absent: the active rule; `sr` absent: no SR decision. */
export interface ArmProjection {
  readonly rule?: string;
  readonly sr?: SrConfigOverride;
}

/** What an endpoint does with one payment of a running experiment. */
export interface EndpointPlan {
  readonly arm: ExperimentArm;
  readonly projection: ArmProjection;
  /** False when the experiment does not split on this endpoint: the payment is routed as if it had none. */
  readonly inExperiment: boolean;
}

/** An arm's layers, reading the single-strategy form (`sr_routing` or a rule_id) as one layer. */
export function resolvedArm(data: AbTestData, arm: ExperimentArm): ExperimentArmLayers {
  const layered = arm === 'variant' ? data.variant : data.control;
  if (layered !== undefined) return layered;
  const id = arm === 'variant' ? data.variant_algorithm_id : data.control_algorithm_id;
  if (id === srRoutingArm) return { sr: (arm === 'variant' ? data.variant_sr_config : data.control_sr_config) ?? {} };
  return id !== undefined && id.trim().length > 0 ? { rule_algorithm_id: id } : {};
}

export function project(layers: ExperimentArmLayers, endpoint: ExperimentEndpoint): ArmProjection {
  const rule = layers.rule_algorithm_id === undefined ? {} : { rule: layers.rule_algorithm_id };
  if (endpoint === 'evaluate') return rule;
  return layers.sr === undefined ? rule : { ...rule, sr: layers.sr };
}

function sameProjection(a: ArmProjection, b: ArmProjection): boolean {
  return a.rule === b.rule && JSON.stringify(a.sr ?? null) === JSON.stringify(b.sr ?? null);
}

export function inScope(data: AbTestData, endpoint: ExperimentEndpoint): boolean {
  return data.endpoints === undefined || data.endpoints.includes(endpoint);
}

/** Whether traffic on `endpoint` is split between the arms. */
export function splitsOn(data: AbTestData, endpoint: ExperimentEndpoint): boolean {
  return inScope(data, endpoint) && !sameProjection(project(resolvedArm(data, 'control'), endpoint), project(resolvedArm(data, 'variant'), endpoint));
}

/** A payment on an endpoint the experiment does not split: routed as if there were none. */
const outsidePlan: EndpointPlan = { arm: 'control', projection: {}, inExperiment: false };

/** What one endpoint does with each arm of one experiment document: worked out once per document. */
export interface EndpointArms {
  readonly splits: boolean;
  /** The plan a payment of each arm gets when the endpoint splits: shared, read-only. */
  readonly controlPlan: EndpointPlan;
  readonly variantPlan: EndpointPlan;
}

/**
 * Per experiment document (the store serves the same record object until it changes), per endpoint.
 * A decision in an experiment would otherwise resolve and project both arms and compare their SR
 * layers as JSON on every payment.
 */
const endpointArms = new WeakMap<AbTestData, Partial<Record<ExperimentEndpoint, EndpointArms>>>();

export function endpointArmsOf(data: AbTestData, endpoint: ExperimentEndpoint): EndpointArms {
  let byEndpoint = endpointArms.get(data);
  if (byEndpoint === undefined) {
    byEndpoint = {};
    endpointArms.set(data, byEndpoint);
  }
  let arms = byEndpoint[endpoint];
  if (arms === undefined) {
    arms = {
      splits: splitsOn(data, endpoint),
      controlPlan: { arm: 'control', projection: project(resolvedArm(data, 'control'), endpoint), inExperiment: true },
      variantPlan: { arm: 'variant', projection: project(resolvedArm(data, 'variant'), endpoint), inExperiment: true },
    };
    byEndpoint[endpoint] = arms;
  }
  return arms;
}

/**
 * The plan of one payment on one endpoint; its arm is the payment id's hash, the same on every
 * endpoint. The projection is shared by every payment of the arm (read-only).
 */
export function planOf(data: AbTestData, endpoint: ExperimentEndpoint, paymentId: string): EndpointPlan {
  const arms = endpointArmsOf(data, endpoint);
  if (!arms.splits) return outsidePlan;
  return pickArm(data, paymentId, arms.controlPlan, arms.variantPlan);
}

/** Of one payment's two choices, its arm's: the payment id's hash against the variant's split. */
export function pickArm<T>(data: AbTestData, paymentId: string, control: T, variant: T): T {
  return assignArm(paymentId, data.variant_split_pct) === 'variant' ? variant : control;
}

/** The rule ids an experiment's arms name (checked against the store at create and update time). */
export function armRuleIds(data: AbTestData): { readonly field: string; readonly id: string }[] {
  const out: { field: string; id: string }[] = [];
  for (const arm of ['control', 'variant'] as const) {
    const id = resolvedArm(data, arm).rule_algorithm_id;
    if (id === undefined) continue;
    const layered = (arm === 'variant' ? data.variant : data.control) !== undefined;
    out.push({ field: layered ? `${arm}.rule_algorithm_id` : `${arm}_algorithm_id`, id });
  }
  return out;
}

/** Write-time checks of the arms and endpoints that need no store: `(path, message)` pairs. */
export function armLayerProblems(data: AbTestData): { readonly path: string; readonly message: string }[] {
  const problems: { path: string; message: string }[] = [];
  for (const arm of ['control', 'variant'] as const) {
    const layers = resolvedArm(data, arm);
    if (layers.rule_algorithm_id === undefined && layers.sr === undefined) {
      problems.push({ path: `data.${arm}`, message: `the ${arm} arm needs a rule layer, an SR layer, or both` });
    }
  }
  if (data.endpoints !== undefined && data.endpoints.length === 0) {
    problems.push({ path: 'data.endpoints', message: 'select at least one endpoint, or omit endpoints to apply everywhere' });
  }
  if (problems.length === 0 && !experimentEndpoints.some((endpoint) => splitsOn(data, endpoint))) {
    problems.push({ path: 'data.variant', message: 'control and variant apply the same layers on every selected endpoint' });
  }
  return problems;
}
