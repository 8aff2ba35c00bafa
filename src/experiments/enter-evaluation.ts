import type { RoutingEvaluateRequest } from '../generated/schema-types.js';
import type { StateStore } from '../ports/state-store.js';
import type { RoutingAlgorithmRecord } from '../ports/state/routing-rule-store.js';
import { isFeatureEnabled, readMerchantFeatures } from '../decision/features/merchant-features.js';
import type { ExperimentArm } from './assign-arm.js';
import { planOf } from './experiment-arms.js';
import { activeRulesOf, runningExperimentOf, type RunningExperiment } from './enter-experiment.js';

/** What a static evaluation in an experiment records (rule.evaluated `experiment`). */
export interface EvaluationExperimentTag {
  readonly experimentId: string;
  readonly experimentArm: ExperimentArm;
  /** The rule that evaluated: the arm's rule layer, or the active rule's id when the arm has none. */
  readonly armAlgorithmId: string;
  readonly endpoint: 'evaluate' | 'hybrid_routing';
}

export interface EvaluationRouting {
  /** The algorithms to evaluate, first one first. */
  readonly candidates: readonly RoutingAlgorithmRecord[];
  readonly experiment?: EvaluationExperimentTag;
  /** The running experiment, when `experiment` is set. */
  readonly experimentRecord?: RunningExperiment;
}

/**
 * The static half of /routing/evaluate and /routing/hybrid with a running experiment (decision-
 * engine #434): a payment it covers (a `payment_id`, the merchant feature `ab-test-real-payments`
 * on, the experiment splitting on this endpoint) is evaluated by its arm's rule layer, or by the
 * active rule when the arm has none; every other request by the active rule. The experiment record
 * itself is never evaluated as a rule. Without a running experiment this returns at once with the
 * list it was given: no read, no allocation.
 */
export function evaluationInExperiment(
  deps: { readonly state: Pick<StateStore, 'routingRules' | 'configs'> },
  body: Pick<RoutingEvaluateRequest, 'created_by' | 'payment_id'>,
  active: readonly RoutingAlgorithmRecord[],
  endpoint: 'evaluate' | 'hybrid_routing',
): EvaluationRouting | Promise<EvaluationRouting> {
  const experiment = runningExperimentOf(active);
  if (experiment === undefined) return { candidates: active };
  return routeIntoArm(deps, body, active, experiment, endpoint);
}

async function routeIntoArm(
  deps: { readonly state: Pick<StateStore, 'routingRules' | 'configs'> },
  body: Pick<RoutingEvaluateRequest, 'created_by' | 'payment_id'>,
  active: readonly RoutingAlgorithmRecord[],
  experiment: RunningExperiment,
  endpoint: 'evaluate' | 'hybrid_routing',
): Promise<EvaluationRouting> {
  const rules = activeRulesOf(active);
  const paymentId = body.payment_id ?? '';
  if (paymentId === '') return { candidates: rules };
  const plan = planOf(experiment.algorithm.data, endpoint, paymentId);
  if (!plan.inExperiment) return { candidates: rules };
  if (!isFeatureEnabled(await readMerchantFeatures(deps.state.configs, body.created_by), 'ab-test-real-payments')) return { candidates: rules };
  let candidates = rules;
  const ruleId = plan.projection.rule;
  if (ruleId !== undefined) {
    const record = await deps.state.routingRules.get(ruleId);
    // A broken arm leaves the payment out of the experiment (the active rule answers, nothing is attributed).
    if (record === undefined || record.createdBy !== body.created_by || record.algorithm.type === 'ab_test') return { candidates: rules };
    candidates = [record];
  }
  const evaluated = candidates[0];
  if (evaluated === undefined) return { candidates };
  return {
    candidates,
    experiment: { experimentId: experiment.id, experimentArm: plan.arm, armAlgorithmId: evaluated.id, endpoint },
    experimentRecord: experiment,
  };
}
