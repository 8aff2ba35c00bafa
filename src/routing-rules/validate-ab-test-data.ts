import { srRoutingArm, type AbTestData, type SrConfigOverride } from '../ports/state/routing-algorithm.js';
import { armLayerProblems } from '../experiments/experiment-arms.js';
import { issue, quote, type RuleValidationIssue } from './rule-validation-issue.js';

/**
 * The MEANING half of an `ab_test` algorithm that needs no store: the split is 1–49 (the variant is
 * always the minority arm), the sample size and guardrail are positive, overrides are in range
 * (hedging 0–100 %, elimination threshold 0–1, margin a fraction of the ticket in (0, 1]), and
 * each arm names an algorithm. Whether a rule_id exists and belongs to the merchant is checked at
 * create/update time (src/experiments/check-experiment-arms.ts).
 */
export function validateAbTestData(data: AbTestData): RuleValidationIssue[] {
  const issues: RuleValidationIssue[] = [];
  const range = (path: string, detail: string) => issues.push(issue('value_out_of_range', path, detail));
  if (data.variant_split_pct < 1 || data.variant_split_pct > 49) {
    range('data.variant_split_pct', `${data.variant_split_pct} is outside 1–49 (the variant must be the minority arm)`);
  }
  if (data.min_sample_size < 1 || data.min_sample_size > 4_294_967_295) {
    range('data.min_sample_size', `${data.min_sample_size} must be a positive integer (at most 4294967295)`);
  }
  if (data.guardrail_threshold_pp <= 0 || data.guardrail_threshold_pp > 100) {
    range('data.guardrail_threshold_pp', `${data.guardrail_threshold_pp} must be more than 0 and at most 100 percentage points`);
  }
  for (const [field, id, layered] of [
    ['control_algorithm_id', data.control_algorithm_id, data.control],
    ['variant_algorithm_id', data.variant_algorithm_id, data.variant],
  ] as const) {
    if (layered === undefined && (id === undefined || id.trim().length === 0)) {
      issues.push(issue('empty_output', `data.${field}`, `name '${srRoutingArm}' or the rule_id of an existing algorithm`));
    }
  }
  checkOverride(data.control_sr_config, 'data.control_sr_config', issues);
  checkOverride(data.variant_sr_config, 'data.variant_sr_config', issues);
  checkOverride(data.control?.sr, 'data.control.sr', issues);
  checkOverride(data.variant?.sr, 'data.variant.sr', issues);
  if (issues.length === 0) for (const problem of armLayerProblems(data)) issues.push(issue('empty_output', problem.path, problem.message));
  return issues;
}

function checkOverride(override: SrConfigOverride | undefined, path: string, issues: RuleValidationIssue[]): void {
  if (override === undefined) return;
  const { hedging_percent: hedging, elimination_threshold: threshold, margin } = override;
  if (hedging !== undefined && (hedging < 0 || hedging > 100)) {
    issues.push(issue('value_out_of_range', `${path}.hedging_percent`, `${hedging} is outside 0–100`));
  }
  if (threshold !== undefined && (threshold < 0 || threshold > 1)) {
    issues.push(issue('value_out_of_range', `${path}.elimination_threshold`, `${threshold} is outside 0–1`));
  }
  if (margin !== undefined && (margin <= 0 || margin > 1)) {
    issues.push(issue('value_out_of_range', `${path}.margin`, `${margin} must be a fraction of the ticket in (0, 1]`));
  }
}

/** A refusal naming an arm's algorithm id, for check-experiment-arms.ts. */
export function armIssue(field: string, id: string, detail: string): RuleValidationIssue {
  return issue('unknown_algorithm', `data.${field}`, `${quote(id)} ${detail}`);
}
