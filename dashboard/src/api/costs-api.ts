import type { HttpClient } from './http-client';
import { optionalRoute } from './optional-route';
import type {
  ConnectorFee,
  CostCoverage,
  CostIngestion,
  CostSavingsReport,
  ReportingCurrencySetting,
  SeedCostQuote,
  SeedCostSimulateRequest,
  SeedCostWireRow,
} from './server-types';

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
    /** The reporting currency and its rates (`currency` null: none set). */
    reportingCurrency: (signal?: AbortSignal) =>
      http.request<ReportingCurrencySetting>('GET', `${base()}/reporting-currency`, signal !== undefined ? { signal } : {}),
    saveReportingCurrency: (setting: ReportingCurrencySetting) =>
      http.request<ReportingCurrencySetting>('PUT', `${base()}/reporting-currency`, { body: setting }),
    clearReportingCurrency: () => http.request<ReportingCurrencySetting>('DELETE', `${base()}/reporting-currency`),
    /** Unavailable on a service without the route. */
    /** In `currency` when given, else the API's pick (the currency with the most cost-won decisions). */
    costSavings: (range: string, currency: string | undefined, signal?: AbortSignal) =>
      optionalRoute(() =>
        http.request<CostSavingsReport>('GET', '/analytics/cost-savings', {
          query: { range, ...(currency !== undefined ? { currency } : {}) },
          ...(signal !== undefined ? { signal } : {}),
        }),
      ),
  };
}
