import { dimensionKeys, type DimensionKey, type ParsedAnalyticsQuery } from '../ports/analytics/analytics-query.js';
import { orNull, type BucketCountFact, type CountFact, type FilterValuesFact, type ScorePointFact } from './analytics-facts.js';
import type { DimensionValues, RoutingStatsReport } from '../ports/analytics/analytics-reports.js';
import { shapeScorePoint } from './shape-score-reports.js';

/** Labels shown by routing-stats `available_filters` for each dimension. */
const dimensionLabels: Readonly<Record<DimensionKey, string>> = {
  payment_method_type: 'Payment method type',
  payment_method: 'Payment method',
  card_network: 'Card network',
  card_is_in: 'Card ISIN',
  currency: 'Currency',
  country: 'Country',
  auth_type: 'Auth type',
};

/** How many rules routing-stats lists (reference: ≤10). */
export const routingStatsRuleLimit = 10;

/**
 * GET /analytics/routing-stats. `filterValues` maps each dimension key (and `gateway`) to the
 * distinct values seen in the window; dimensions without any value are listed as missing.
 */
export function shapeRoutingStatsReport(
  query: ParsedAnalyticsQuery,
  facts: {
    readonly gatewayShare: readonly BucketCountFact[];
    readonly topRules: readonly CountFact[];
    readonly trend: readonly ScorePointFact[];
    readonly filterValues: FilterValuesFact;
  },
): RoutingStatsReport {
  const present = (values: readonly string[] | undefined) => [...(values ?? [])].filter((v) => v !== '').sort();
  const dimensions: DimensionValues[] = [];
  const missing: { key: string; label: string }[] = [];
  for (const key of dimensionKeys) {
    const values = present(facts.filterValues[key]);
    if (values.length > 0) dimensions.push({ key, label: dimensionLabels[key], values });
    else missing.push({ key, label: dimensionLabels[key] });
  }
  return {
    merchant_id: query.merchantId,
    range: query.range,
    gateway_share: facts.gatewayShare.map((fact) => ({ bucket_ms: fact.bucket_ms, gateway: orNull(fact.key), count: fact.count })),
    top_rules: facts.topRules.map((fact) => ({ rule_name: fact.key, count: fact.count })),
    sr_trend: facts.trend.map((fact) => shapeScorePoint(query.merchantId, fact)),
    available_filters: { dimensions, missing_dimensions: missing, gateways: present(facts.filterValues['gateway']) },
  };
}
