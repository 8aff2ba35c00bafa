import type { RoutingAlgorithm } from '../ports/state/routing-algorithm.js';
import { srRoutingArm } from '../ports/state/routing-algorithm.js';
import type { RoutingRuleStore } from '../ports/state/routing-rule-store.js';
import { armIssue } from '../routing-rules/validate-ab-test-data.js';

/**
 * The half of an `ab_test` check that needs the store: each arm is `sr_routing` or the rule_id of
 * another algorithm of the same merchant that is not itself an experiment (no nesting). Returns
 * the problems as messages (empty when the algorithm is not an experiment or is fine).
 */
export async function experimentArmProblems(
  routingRules: Pick<RoutingRuleStore, 'get'>,
  createdBy: string,
  algorithm: RoutingAlgorithm,
  ownId: string | undefined,
): Promise<string[]> {
  if (algorithm.type !== 'ab_test') return [];
  const problems: string[] = [];
  for (const field of ['control_algorithm_id', 'variant_algorithm_id'] as const) {
    const id = algorithm.data[field];
    if (id === srRoutingArm) continue;
    if (id === ownId) {
      problems.push(armIssue(field, id, 'is this experiment itself').message);
      continue;
    }
    const record = await routingRules.get(id);
    if (record === undefined || record.createdBy !== createdBy) {
      problems.push(armIssue(field, id, `is neither '${srRoutingArm}' nor an algorithm of merchant ${createdBy}`).message);
    } else if (record.algorithm.type === 'ab_test') {
      problems.push(armIssue(field, id, 'is an ab_test algorithm; experiments cannot be nested').message);
    } else if (record.algorithm.type === 'volume_contract') {
      problems.push(armIssue(field, id, 'is a volume_contract document, which routes nothing by itself').message);
    }
  }
  return problems;
}
