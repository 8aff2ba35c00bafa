import type { CostSavingsReport } from '../generated/schema-types.js';
import type { AnalyticsStore } from '../ports/analytics-store.js';
import type { ParsedAnalyticsQuery } from '../ports/analytics/analytics-query.js';
import type { ConfigStore } from '../ports/state/config-store.js';

/**
 * GET /analytics/cost-savings: the report, with the merchant's reporting currency when one is set
 * (the `reporting_currency` block; src/costs/reporting-currency-settings.ts).
 */
export async function readCostSavings(
  deps: { readonly analytics: Pick<AnalyticsStore, 'costSavings'>; readonly configs: Pick<ConfigStore, 'get'> },
  query: ParsedAnalyticsQuery,
): Promise<CostSavingsReport> {
  const reporting = await deps.configs.get(query.merchantId, 'reportingCurrency');
  return deps.analytics.costSavings(query, reporting);
}
