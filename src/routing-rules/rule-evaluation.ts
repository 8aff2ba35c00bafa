import type { ConnectorInfo } from '../ports/state/routing-algorithm.js';

/** The `output` of a `/routing/evaluate` response, as on the reference wire. */
export type EvaluationOutput =
  | { readonly type: 'straight_through'; readonly connector: ConnectorInfo }
  | { readonly type: 'priority'; readonly connectors: readonly ConnectorInfo[] }
  | { readonly type: 'volume_split'; readonly splits: readonly { readonly connector: ConnectorInfo; readonly split: number }[] }
  | {
      readonly type: 'volume_split_priority';
      readonly splits: readonly { readonly connectors: readonly ConnectorInfo[]; readonly split: number }[];
    };

/**
 * What evaluating an algorithm decided (before the pm-filter eligibility step, which is not ours).
 * `ruleName` is `straight_through_rule` / `priority_rule` / `volume_split_rule` for the static
 * algorithms, the matching rule's own name for `advanced`, null for an advanced default selection and
 * `default_fallback` after `applyFallbackOutput` replaced it.
 */
export interface RuleEvaluation {
  readonly status: 'success' | 'default_selection';
  readonly output: EvaluationOutput;
  /** Connectors in the order to try them: volume splits put the weighted winner first. */
  readonly evaluatedOutput: readonly ConnectorInfo[];
  readonly ruleName: string | null;
}

/**
 * The one evaluation failure the reference reports: a condition whose parameter value cannot be
 * compared with the rule's value (e.g. a number parameter against a str rule). The API answers 400
 * `Invalid request received : Interpreter error: InvalidComparison`.
 */
export interface InterpreterError {
  readonly type: 'invalid_comparison';
  /** `Interpreter error: InvalidComparison`, the reference's text after its request prefix. */
  readonly message: string;
  /** Which condition failed, for logs: the rule's name and the condition's lhs. */
  readonly ruleName: string;
  readonly lhs: string;
}

export type RuleEvaluationResult = { readonly ok: true; readonly evaluation: RuleEvaluation } | { readonly ok: false; readonly error: InterpreterError };

/**
 * `/routing/evaluate`'s `fallback_output` rule: when no advanced rule matched (status
 * `default_selection`) and the caller sent a non-empty fallback list, the output becomes that list as
 * a priority output and the rule name `default_fallback`. Anything else is returned unchanged.
 */
export function applyFallbackOutput(evaluation: RuleEvaluation, fallback: readonly ConnectorInfo[] | null | undefined): RuleEvaluation {
  if (evaluation.status !== 'default_selection' || !fallback || fallback.length === 0) return evaluation;
  const connectors = fallback.map((connector) => ({ gateway_name: connector.gateway_name, gateway_id: connector.gateway_id ?? null }));
  return {
    status: 'default_selection',
    output: { type: 'priority', connectors },
    evaluatedOutput: connectors,
    ruleName: 'default_fallback',
  };
}

/**
 * What `/routing/evaluate` answers: an evaluation, or (`no_active_algorithm`) the caller's
 * `fallback_output` for a merchant with no active algorithm (`noActiveAlgorithmEvaluation`).
 */
export type EvaluationAnswer = Omit<RuleEvaluation, 'status'> & { readonly status: RuleEvaluation['status'] | 'no_active_algorithm' };

/**
 * The answer of `/routing/evaluate` for a merchant with no active algorithm when the caller sent a
 * non-empty `fallback_output` (decision-engine #379, #388, #400): that list as a priority output,
 * status `no_active_algorithm`. Undefined without a fallback: there is nothing to answer with.
 */
export function noActiveAlgorithmEvaluation(fallback: readonly ConnectorInfo[] | null | undefined): EvaluationAnswer | undefined {
  if (!fallback || fallback.length === 0) return undefined;
  const connectors = fallback.map((connector) => ({ gateway_name: connector.gateway_name, gateway_id: connector.gateway_id ?? null }));
  return { status: 'no_active_algorithm', output: { type: 'priority', connectors }, evaluatedOutput: connectors, ruleName: null };
}
