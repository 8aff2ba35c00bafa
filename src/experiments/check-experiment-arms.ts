import type { RoutingAlgorithm } from '../ports/state/routing-algorithm.js';
import type { RoutingRuleStore } from '../ports/state/routing-rule-store.js';
import { armIssue } from '../routing-rules/validate-ab-test-data.js';
import { armRuleIds } from './experiment-arms.js';

/**
 * The half of an `ab_test` check that needs the store: each arm's rule layer is the rule_id of
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
  for (const { field, id } of armRuleIds(algorithm.data)) {
    if (id === ownId) {
      problems.push(armIssue(field, id, 'is this experiment itself').message);
      continue;
    }
    const record = await routingRules.get(id);
    if (record === undefined || record.createdBy !== createdBy) {
      problems.push(armIssue(field, id, `is neither 'sr_routing' nor an algorithm of merchant ${createdBy}`).message);
    } else if (record.algorithm.type === 'ab_test') {
      problems.push(armIssue(field, id, 'is an ab_test algorithm; experiments cannot be nested').message);
    } else if (record.algorithm.type === 'volume_contract') {
      problems.push(armIssue(field, id, 'is a volume_contract document, which routes nothing by itself').message);
    }
  }
  return problems;
}
