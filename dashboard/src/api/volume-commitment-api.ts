import type { HttpClient } from './http-client';
import type { PostStepPriceReport, VolumeCommitmentDashboard, VolumeForecastRunReport } from './server-types';

/** Volume commitments (api/routes/volume-commitment.ts, docs/volume-commitments.md). */
export function volumeCommitmentApi(http: HttpClient, merchantId: () => string) {
  const base = () => `/merchant-account/${encodeURIComponent(merchantId())}/volume-commitment`;
  return {
    dashboard: () => http.request<VolumeCommitmentDashboard>('GET', `${base()}/dashboard`),
    runForecast: () => http.request<VolumeForecastRunReport>('POST', '/volume-commitment/run-forecast', { query: { merchant_id: merchantId() } }),
    /** The approval rate steering gave up over a window (POST /analytics/counterfactual, candidate without_volume_commitment). */
    priceOfSteering: (window: { readonly start_ms: number; readonly end_ms: number } | { readonly range: '30d' }, signal?: AbortSignal) =>
      http.request<PostStepPriceReport>('POST', '/analytics/counterfactual', {
        body: { ...window, candidate: 'without_volume_commitment' },
        ...(signal === undefined ? {} : { signal }),
      }),
  };
}
