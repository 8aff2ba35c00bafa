import type { HttpClient } from './http-client';
import type { VolumeCommitmentDashboard, VolumeForecastRunReport } from './server-types';

/** Volume commitments (api/routes/volume-commitment.ts, docs/volume-commitments.md). */
export function volumeCommitmentApi(http: HttpClient, merchantId: () => string) {
  const base = () => `/merchant-account/${encodeURIComponent(merchantId())}/volume-commitment`;
  return {
    dashboard: () => http.request<VolumeCommitmentDashboard>('GET', `${base()}/dashboard`),
    runForecast: () => http.request<VolumeForecastRunReport>('POST', '/volume-commitment/run-forecast', { query: { merchant_id: merchantId() } }),
  };
}
