import type { HttpClient } from './http-client';
import { optionalRoute } from './optional-route';
import type { ConnectorFee, CostCoverage, CostIngestion, SeedCostQuote, SeedCostSimulateRequest, SeedCostWireRow } from './server-types';

/**
 * The cost-savings rollup of `GET /analytics/cost-savings` as decision-engine documents it
 * (analyticsCostSavings.mdx): what cost-aware picks saved against the success-rate head's cost.
 * The service has no schema for it yet; the dashboard reads only these fields.
 */
export interface CostSavingsReport {
  readonly merchant_id: string;
  readonly currency: string | null;
  readonly available_currencies: readonly { readonly currency: string; readonly decision_count: number }[];
  readonly trend: readonly { readonly bucket_ms: number; readonly saved_value: number }[];
  readonly totals: { readonly saved_value: number; readonly cost_won_count: number; readonly total_decisions: number };
}

/** Seed costs, cost ingestion reads and cost savings (api/routes/seed-costs.ts, cost-ingestion*.ts), for the session's merchant. */
export function costsApi(http: HttpClient, merchantId: () => string) {
  const base = () => `/merchant-account/${encodeURIComponent(merchantId())}`;
  return {
    coverage: () => http.request<CostCoverage>('GET', `${base()}/cost-coverage`),
    ingestions: () => http.request<CostIngestion[]>('GET', `${base()}/cost-ingestions`),
    connectorFees: () => http.request<ConnectorFee[]>('GET', `${base()}/connector-fees`),
    seedCosts: () => http.request<SeedCostWireRow[]>('GET', `${base()}/seed-costs`),
    saveSeedCosts: (rows: readonly SeedCostWireRow[]) => http.request<SeedCostWireRow[]>('PUT', `${base()}/seed-costs`, { body: { rows } }),
    resetSeedCosts: () => http.request<SeedCostWireRow[]>('DELETE', `${base()}/seed-costs`),
    simulate: (request: SeedCostSimulateRequest) => http.request<SeedCostQuote[]>('POST', `${base()}/seed-costs/simulate`, { body: request }),
    /** Unavailable on a service without the route. */
    costSavings: (range: string, signal?: AbortSignal) =>
      optionalRoute(() => http.request<CostSavingsReport>('GET', '/analytics/cost-savings', { query: { range }, ...(signal !== undefined ? { signal } : {}) })),
  };
}
