import type { ParsedAnalyticsQuery } from '../../ports/analytics/analytics-query.js';
import { analyticsFlows } from '../../analytics/analytics-flows.js';
import { failureMarkers, successStatuses } from '../../analytics/status-families.js';
import type { SqlValue } from './bind-sql.js';

/**
 * Binds a parsed query to the placeholders of sql/domain-filters-sql.ts (window, dimensions,
 * audit filters) plus the flow lists every read may use. One object serves every read: bindSql
 * ignores what a statement does not use.
 */
export function domainFilterParams(database: string, query: ParsedAnalyticsQuery, summaryKind = ''): Record<string, SqlValue> {
  const { audit, dimensions } = query;
  return {
    database,
    merchant_id: query.merchantId,
    start_ms: query.startMs,
    end_ms: query.endMs,
    start_s: Math.floor(query.startMs / 1000),
    end_s: Math.floor(query.endMs / 1000),
    bucket: query.bucketMs,
    api: query.api ?? '',
    f_payment_method_type: dimensions.payment_method_type ?? '',
    f_payment_method: dimensions.payment_method ?? '',
    f_card_network: dimensions.card_network ?? '',
    f_card_is_in: dimensions.card_is_in ?? '',
    f_currency: dimensions.currency ?? '',
    f_country: dimensions.country ?? '',
    f_auth_type: dimensions.auth_type ?? '',
    f_gateways: query.gateways,
    summary_kind: summaryKind,
    a_payment_id: audit.paymentId ?? '',
    a_request_id: audit.requestId ?? '',
    a_routes: audit.routes,
    a_flow_type: audit.flowType ?? '',
    a_routing_approach: audit.routingApproach ?? '',
    a_exclude_routing_approach: audit.excludeRoutingApproach ?? '',
    a_error_code: audit.errorCode ?? '',
    a_status_kind: audit.statusFilter.kind,
    a_status: audit.statusFilter.kind === 'exact' ? audit.statusFilter.status : '',
    success_statuses: successStatuses,
    failure_markers: failureMarkers,
    decision_flow: analyticsFlows.decision,
    decision_error_flow: analyticsFlows.decisionError,
    rule_hit_flow: analyticsFlows.ruleHit,
    snapshot_flows: analyticsFlows.snapshots,
    error_flows: analyticsFlows.errors,
  };
}
