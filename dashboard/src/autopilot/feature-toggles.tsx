import { useState } from 'preact/hooks';
import type { MerchantFeatureSlug } from '../api/autopilot-api';
import { AsyncView } from '../components/async-view';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';

/** What each flag does, in the service's words (docs/cost-routing.md, docs/experiments.md, docs/gsm.md). */
export const featureInfo: Record<MerchantFeatureSlug, { readonly title: string; readonly detail: string }> = {
  autopilot: {
    title: 'Autopilot',
    detail: 'Lets the self-tuning job write bucket size and hedging (tagged source: autopilot). Needs auto-calibration on too.',
  },
  'auto-calibration': {
    title: 'SR auto-calibration',
    detail: 'Enrols the merchant in the self-tuning job, which reads the last hour of traffic every 15 minutes.',
  },
  'multi-objective-routing': {
    title: 'Multi-objective (cost-aware) routing',
    detail: 'Promotes a cheaper gateway over the success-rate pick when its expected value is strictly higher. A request’s enableMultiObjective overrides it.',
  },
  'ab-test-real-payments': { title: 'A/B tests on real payments', detail: 'Active experiments split live decisions; off, an active experiment is inert.' },
  'gsm-scoring-filter': {
    title: 'Fair feedback (GSM scoring filter)',
    detail: 'Only PSP-side failures lower a gateway’s score; issuer and customer declines do not.',
  },
  elimination: { title: 'Elimination', detail: 'Gateway-level elimination of gateways whose score falls below the threshold.' },
  'explore-exploit-srv3': { title: 'Explore/exploit (SR v3)', detail: 'Explore/exploit hedging on the success-rate scoring path.' },
  'volume-contracts': {
    title: 'Volume commitments',
    detail:
      'Steers a share of success-rate decisions toward PSPs behind on their volume commitment, within the contract’s tolerance (docs/volume-commitments.md).',
  },
  'sr-routing': {
    title: 'SR routing (hybrid)',
    detail: 'Runs the dynamic (success-rate) half of /routing/hybrid; off, hybrid answers the static rule result alone.',
  },
  'sticky-routing': {
    title: 'Sticky routing',
    detail:
      'Sends a returning customer to the connector it pays with most successfully for that payment method, unless that connector is eliminated or weak. A request’s stickyRouting overrides it.',
  },
};

/** Self-tuning flags first, then the rest in the service's order. */
const order: readonly MerchantFeatureSlug[] = ['autopilot', 'auto-calibration', 'multi-objective-routing'];

/** Every merchant feature flag as a switch (GET/POST …/features); each write answers the whole list, re-read. */
export function FeatureToggles() {
  const { api, session } = useDashboard();
  const { resource, reload } = useResource(() => api.autopilot.features(), [session.merchantId]);
  const [pending, setPending] = useState<{ readonly feature: MerchantFeatureSlug; readonly enabled: boolean } | undefined>(undefined);
  const [latest, setLatest] = useState<Awaited<ReturnType<typeof api.autopilot.features>> | undefined>(undefined);
  const action = useAction();

  const toggle = (feature: MerchantFeatureSlug, enabled: boolean) => {
    setPending({ feature, enabled });
    void action.run(async () => {
      try {
        setLatest(await api.autopilot.setFeature(feature, enabled));
      } finally {
        setPending(undefined);
      }
    });
  };

  return (
    <section class="panel" aria-labelledby="features-title">
      <h2 id="features-title">Feature flags</h2>
      <AsyncView resource={resource} label="the feature flags" onRetry={reload}>
        {(loaded) => {
          const list = latest !== undefined && latest.merchant_id === loaded.merchant_id ? latest : loaded;
          const features = [...list.features].sort((a, b) => rank(a.feature) - rank(b.feature));
          return (
            <>
              <ul class="toggle-list">
                {features.map(({ feature, enabled }) => (
                  <li key={feature}>
                    <label class="check">
                      <input
                        type="checkbox"
                        checked={pending?.feature === feature ? pending.enabled : enabled}
                        disabled={action.busy}
                        aria-describedby={`feature-${feature}-detail`}
                        onChange={(event) => toggle(feature, event.currentTarget.checked)}
                      />
                      {featureInfo[feature]?.title ?? feature}
                    </label>
                    <p class="hint" id={`feature-${feature}-detail`}>
                      <code>{feature}</code>: {featureInfo[feature]?.detail ?? ''}
                    </p>
                  </li>
                ))}
              </ul>
              <FormError error={action.error} />
            </>
          );
        }}
      </AsyncView>
    </section>
  );
}

function rank(feature: MerchantFeatureSlug): number {
  const index = order.indexOf(feature);
  return index === -1 ? order.length : index;
}
