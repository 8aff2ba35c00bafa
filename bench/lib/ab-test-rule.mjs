/**
 * The body of `POST /routing/create` for the benches' A/B experiment: SR against SR with multi-objective
 * on in the variant (30 % of payments, sticky arms), so a decision pays for experiment entry, the
 * variant's SR override and the cost step. `variantSrConfig` adds the variant's own settings.
 */
export function abTestRule(name, merchant, variantSrConfig = {}) {
  return {
    name,
    created_by: merchant,
    algorithm_for: 'payment',
    algorithm: {
      type: 'ab_test',
      data: {
        control_algorithm_id: 'sr_routing',
        variant_algorithm_id: 'sr_routing',
        variant_split_pct: 30,
        min_sample_size: 1000,
        guardrail_threshold_pp: 3,
        variant_sr_config: { enable_multi_objective: true, ...variantSrConfig },
      },
    },
  };
}
