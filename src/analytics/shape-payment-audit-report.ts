import type { ParsedAnalyticsQuery } from '../ports/analytics/analytics-query.js';
import { orNull, type AuditResultFact, type AuditTotalsFact, type TimelineFact } from './analytics-facts.js';
import type { AuditTimelineEntry, PaymentAuditReport } from '../ports/analytics/analytics-reports.js';

/** Most events one audit timeline returns; a payment with more is cut (oldest first kept). */
export const auditTimelineLimit = 1_000;

/**
 * GET /analytics/payment-audit and /analytics/preview-trace: one page of lookup-key summaries,
 * totals over every matching key, and the timeline of the first result on the page.
 */
export function shapePaymentAuditReport(
  query: ParsedAnalyticsQuery,
  facts: {
    readonly totals: AuditTotalsFact;
    readonly results: readonly AuditResultFact[];
    readonly timeline: readonly TimelineFact[];
  },
): PaymentAuditReport {
  const { audit } = query;
  return {
    merchant_id: query.merchantId,
    range: query.range,
    payment_id: audit.paymentId,
    request_id: audit.requestId,
    gateway: audit.gateway,
    route: audit.route,
    status: audit.status,
    flow_type: audit.flowType,
    routing_approach: audit.routingApproach,
    error_code: audit.errorCode,
    page: query.page,
    page_size: query.pageSize,
    total_results: facts.totals.total_results,
    total_success: facts.totals.total_success,
    total_failure: facts.totals.total_failure,
    results: facts.results.map((result) => ({
      lookup_key: result.lookup_key,
      payment_id: orNull(result.payment_id),
      request_id: orNull(result.request_id),
      merchant_id: query.merchantId,
      first_seen_ms: result.first_seen_ms,
      last_seen_ms: result.last_seen_ms,
      event_count: result.event_count,
      latest_status: orNull(result.latest_status),
      latest_gateway: orNull(result.latest_gateway),
      latest_stage: orNull(result.latest_stage),
      gateways: [...result.gateways].filter((g) => g !== '').sort(),
      routes: [...result.routes].filter((r) => r !== '').sort(),
    })),
    timeline: facts.timeline.map((fact) => shapeTimelineEntry(query.merchantId, fact)),
  };
}

function shapeTimelineEntry(merchantId: string, fact: TimelineFact): AuditTimelineEntry {
  return {
    id: fact.event_id,
    flow_type: fact.flow_type,
    event_stage: orNull(fact.event_stage),
    route: orNull(fact.route),
    merchant_id: merchantId,
    payment_id: orNull(fact.payment_id),
    request_id: orNull(fact.request_id),
    global_request_id: orNull(fact.global_request_id),
    trace_id: orNull(fact.trace_id),
    payment_method_type: orNull(fact.payment_method_type),
    payment_method: orNull(fact.payment_method),
    gateway: orNull(fact.gateway),
    routing_approach: orNull(fact.routing_approach),
    rule_name: orNull(fact.rule_name),
    status: orNull(fact.status),
    error_code: orNull(fact.error_code),
    error_message: orNull(fact.error_message),
    score_value: fact.score_value,
    sigma_factor: fact.sigma_factor,
    average_latency: fact.average_latency,
    tp99_latency: fact.tp99_latency,
    transaction_count: fact.transaction_count,
    details: orNull(fact.details),
    details_json: parseDetails(fact.details),
    created_at_ms: fact.created_at_ms,
  };
}

/** Details are our own JSON, but may have been cut at 64 KiB: then there is nothing to parse. */
function parseDetails(details: string): unknown {
  if (details === '') return null;
  try {
    return JSON.parse(details) as unknown;
  } catch (error) {
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}
