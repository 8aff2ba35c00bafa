import { AutopilotRuns } from '../autopilot/autopilot-runs';
import { CounterfactualForm } from '../autopilot/counterfactual-form';
import { FeatureToggles } from '../autopilot/feature-toggles';

/**
 * Autopilot: the merchant's feature flags (autopilot, auto-calibration, cost-aware routing and the
 * rest), the autopilot's last runs with the configuration each chose and its estimate, and a
 * counterfactual estimate of any configuration.
 */
export function AutopilotPage() {
  return (
    <>
      <FeatureToggles />
      <AutopilotRuns />
      <CounterfactualForm />
    </>
  );
}
