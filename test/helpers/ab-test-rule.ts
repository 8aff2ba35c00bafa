/**
 * The body of `POST /routing/create` for the A/B experiment the tests create: SR against SR, the
 * variant (20 % of payments) cost-aware with its own settings. `data` replaces fields of the
 * experiment's own (`algorithm.data`), for the checks that vary one.
 */
export function abTestRule(createdBy: string, naming: { readonly name: string; readonly description: string }, data: Record<string, unknown> = {}) {
  return {
    ...naming,
    created_by: createdBy,
    algorithm_for: 'payment',
    algorithm: {
      type: 'ab_test',
      data: {
        control_algorithm_id: 'sr_routing',
        variant_algorithm_id: 'sr_routing',
        variant_split_pct: 20,
        min_sample_size: 10,
        guardrail_threshold_pp: 3,
        control_sr_config: { enable_multi_objective: false, use_autopilot: false },
        variant_sr_config: { enable_multi_objective: true, hedging_percent: 0, elimination_threshold: 0.35, margin: 0.2 },
        ...data,
      } as Record<string, unknown>,
    },
  };
}
