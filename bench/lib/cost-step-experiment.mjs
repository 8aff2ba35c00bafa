import { abTestRule } from './ab-test-rule.mjs';
import { json } from './spawn-service.mjs';

/**
 * The bench's contract rates, as the body of `PUT /merchant-account/{id}/seed-costs` (bps of the
 * amount, no fixed fee): with equal success rates the SR head is the first eligible gateway (stripe),
 * and checkout, cheapest, wins on expected value, so the cost step moves payments.
 */
export const benchSeedCosts = {
  rows: [
    ['stripe', 290],
    ['adyen', 194],
    ['checkout', 150],
  ].map(([psp, bps]) => ({ psp, interchange_bps: bps, scheme_bps: 0, markup_bps: 0, fixed: 0, is_default: true })),
};

/**
 * Gives `merchant` decide-bench's row 2b as the profiling benches use it: multi-objective routing with
 * {@link benchSeedCosts}, and a running A/B experiment (`abTestRule`, hedging 2 %) with its flag.
 */
export async function enableCostStepAndExperiment(url, merchant, headers, experimentName) {
  for (const feature of ['multi-objective-routing', 'ab-test-real-payments'])
    await json(url, `/merchant-account/${merchant}/features/${feature}`, { enabled: true }, headers);
  await json(url, `/merchant-account/${merchant}/seed-costs`, benchSeedCosts, headers, 'PUT');
  const experiment = await json(url, '/routing/create', abTestRule(experimentName, merchant, { hedging_percent: 2 }), headers);
  await json(url, '/routing/activate', { created_by: merchant, routing_algorithm_id: experiment.rule_id }, headers);
}
