import { abTestRule } from './ab-test-rule.mjs';
import { json } from './spawn-service.mjs';

/** Per-PSP seed costs far enough apart that the cost step moves payments (stripe 290, adyen 194, checkout 150 bps). */
const seedCostRows = [
  ['stripe', 290],
  ['adyen', 194],
  ['checkout', 150],
].map(([psp, bps]) => ({ psp, interchange_bps: bps, scheme_bps: 0, markup_bps: 0, fixed: 0, is_default: true }));

/**
 * Gives `merchant` decide-bench's row 2b as the profiling benches use it: multi-objective routing with
 * the seed costs above, and a running A/B experiment (`abTestRule`, hedging 2 %) with its flag.
 */
export async function enableCostStepAndExperiment(url, merchant, headers, experimentName) {
  for (const feature of ['multi-objective-routing', 'ab-test-real-payments'])
    await json(url, `/merchant-account/${merchant}/features/${feature}`, { enabled: true }, headers);
  await json(url, `/merchant-account/${merchant}/seed-costs`, { rows: seedCostRows }, headers, 'PUT');
  const experiment = await json(url, '/routing/create', abTestRule(experimentName, merchant, { hedging_percent: 2 }), headers);
  await json(url, '/routing/activate', { created_by: merchant, routing_algorithm_id: experiment.rule_id }, headers);
}
