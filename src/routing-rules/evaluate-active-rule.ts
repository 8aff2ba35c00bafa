import type { RoutingAlgorithmRecord } from '../ports/state-store.js';
import type { RandomSource } from '../decision/random-source.js';
import {
  applyFallbackOutput,
  compileRoutingAlgorithm,
  type CompiledRoutingAlgorithm,
  type ConnectorInfo,
  type EvaluationParameters,
  type RuleEvaluation,
} from './index.js';

/**
 * Compiled algorithms, memoised per record object. The caching state store hands out the same
 * record objects until an activation/update/deactivation invalidates them, so each replica compiles
 * an active algorithm once per change; a replaced record is a new object and the old entry is
 * garbage-collected with it.
 */
const compiled = new WeakMap<RoutingAlgorithmRecord, CompiledRoutingAlgorithm>();

export function compiledAlgorithmOf(record: RoutingAlgorithmRecord): CompiledRoutingAlgorithm {
  let entry = compiled.get(record);
  if (entry === undefined) {
    entry = compileRoutingAlgorithm(record.algorithm);
    compiled.set(record, entry);
  }
  return entry;
}

export type ActiveRuleOutcome =
  | { readonly kind: 'no_active' }
  | { readonly kind: 'failed'; readonly record: RoutingAlgorithmRecord; readonly message: string }
  | { readonly kind: 'evaluated'; readonly record: RoutingAlgorithmRecord; readonly evaluation: RuleEvaluation };

/**
 * Evaluates the merchant's active algorithm (the first of `active`, payment first) for one request,
 * applying `fallback_output` to a default selection as /routing/evaluate does.
 */
export function evaluateActiveRule(
  active: readonly RoutingAlgorithmRecord[],
  parameters: EvaluationParameters,
  fallback: readonly ConnectorInfo[] | null | undefined,
  random: RandomSource,
): ActiveRuleOutcome {
  const record = active[0];
  // The volume_commitment slot sorts last, so a contract first means no routing rule is active.
  if (record === undefined || record.algorithmFor === 'volume_commitment') return { kind: 'no_active' };
  const result = compiledAlgorithmOf(record).evaluate(parameters, random);
  if (!result.ok) return { kind: 'failed', record, message: result.error.message };
  return { kind: 'evaluated', record, evaluation: applyFallbackOutput(result.evaluation, fallback) };
}
