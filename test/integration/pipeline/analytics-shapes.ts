import { expect } from 'vitest';

/**
 * The top-level keys of each /analytics/* response, as decision-engine 1.4.x documents them
 * (reference §7.4), written out here rather than taken from our report types, so a renamed field
 * in src/analytics fails these tests instead of silently changing the wire shape.
 */
export const analyticsResponseKeys = {
  // The reference's seven, then the window and payment approval fields of issue 37 (schemas/http/analytics/overview-report.json).
  overview: [
    'merchant_id',
    'kpis',
    'route_hits',
    'top_scores',
    'top_errors',
    'top_rules',
    'smart_retry_stats',
    'start_ms',
    'end_ms',
    'bucket_ms',
    'approval',
    'gateway_approval',
    'approval_series',
    'decline_reasons',
  ],
  decisions: ['merchant_id', 'range', 'tiles', 'series', 'approaches'],
  'gateway-scores': ['merchant_id', 'range', 'snapshots', 'series'],
  'routing-stats': ['merchant_id', 'range', 'gateway_share', 'top_rules', 'sr_trend', 'available_filters'],
  'log-summaries': ['merchant_id', 'range', 'total_errors', 'errors', 'samples', 'page', 'page_size'],
  'payment-audit': auditKeys(),
  'preview-trace': auditKeys(),
} as const;

export type AnalyticsEndpointName = keyof typeof analyticsResponseKeys;

export const analyticsEndpointNames = Object.keys(analyticsResponseKeys) as AnalyticsEndpointName[];

function auditKeys() {
  return [
    'merchant_id',
    'range',
    'payment_id',
    'request_id',
    'gateway',
    'route',
    'status',
    'flow_type',
    'routing_approach',
    'error_code',
    'page',
    'page_size',
    'total_results',
    'total_success',
    'total_failure',
    'results',
    'timeline',
  ] as const;
}

/** Asserts the reference shape of one endpoint's body, for the merchant that asked. */
export function expectAnalyticsShape(endpoint: AnalyticsEndpointName, body: Record<string, unknown>, merchantId: string): void {
  expect(Object.keys(body).sort(), endpoint).toEqual([...analyticsResponseKeys[endpoint]].sort());
  expect(body['merchant_id'], endpoint).toBe(merchantId);
  if (endpoint === 'overview') {
    expect((body['kpis'] as { label: string }[]).map((kpi) => kpi.label)).toEqual(['Decision events / 1h', 'Score snapshots', 'Rule hits', 'Errors']);
    expect((body['route_hits'] as { route: string }[]).map((hit) => hit.route)).toEqual(['/decide_gateway', '/update_gateway', '/rule_evaluate']);
    expect(Object.keys(body['smart_retry_stats'] as object).sort()).toEqual(['by_fallback', 'by_trigger', 'recovered_count', 'retried_count']);
  } else {
    expect(typeof body['range'], endpoint).toBe('string');
  }
  if (endpoint === 'routing-stats') {
    expect(Object.keys(body['available_filters'] as object).sort()).toEqual(['dimensions', 'gateways', 'missing_dimensions']);
  }
}

/** Value of the overview KPI tile with this label, as a number. */
export function overviewKpi(body: { kpis: { label: string; value: string }[] }, label: string): number {
  return Number(body.kpis.find((kpi) => kpi.label === label)?.value ?? Number.NaN);
}
