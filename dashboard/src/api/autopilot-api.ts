import type { HttpClient } from './http-client';
import { optionalRoute } from './optional-route';
import type { AutopilotRuns, CounterfactualReport, CounterfactualRequest, MerchantFeatures } from './server-types';

export type MerchantFeatureSlug = MerchantFeatures['features'][number]['feature'];

/** Merchant feature flags, autopilot runs and counterfactual estimates (api/routes/merchant-features.ts, autopilot.ts, analytics-counterfactual.ts). */
export function autopilotApi(http: HttpClient, merchantId: () => string) {
  const base = () => `/merchant-account/${encodeURIComponent(merchantId())}`;
  return {
    features: () => http.request<MerchantFeatures>('GET', `${base()}/features`),
    setFeature: (feature: MerchantFeatureSlug, enabled: boolean) =>
      http.request<MerchantFeatures>('POST', `${base()}/features/${encodeURIComponent(feature)}`, { body: { enabled } }),
    /** Unavailable on a service without the route. */
    runs: (limit: number) => optionalRoute(() => http.request<AutopilotRuns>('GET', `${base()}/autopilot/runs`, { query: { limit } })),
    counterfactual: (request: CounterfactualRequest) => http.request<CounterfactualReport>('POST', '/analytics/counterfactual', { body: request }),
  };
}
