import type { ParsedAnalyticsQuery } from '../ports/analytics/analytics-query.js';
import { orNull, type ErrorFact, type LogSampleFact } from './analytics-facts.js';
import type { ErrorSummary, LogSummariesReport } from '../ports/analytics/analytics-reports.js';

/** How many error groups log-summaries lists (reference: ≤10). */
export const logSummariesErrorLimit = 10;

export function shapeErrorSummary(fact: ErrorFact): ErrorSummary {
  return {
    route: orNull(fact.route),
    error_code: orNull(fact.error_code),
    error_message: orNull(fact.error_message),
    count: fact.count,
    last_seen_ms: fact.last_seen_ms,
  };
}

/** GET /analytics/log-summaries: error groups plus a page of error events, newest first. */
export function shapeLogSummariesReport(
  query: ParsedAnalyticsQuery,
  facts: { readonly totalErrors: number; readonly errors: readonly ErrorFact[]; readonly samples: readonly LogSampleFact[] },
): LogSummariesReport {
  return {
    merchant_id: query.merchantId,
    range: query.range,
    total_errors: facts.totalErrors,
    errors: facts.errors.map(shapeErrorSummary),
    samples: facts.samples.map((sample) => ({
      route: orNull(sample.route),
      merchant_id: query.merchantId,
      payment_id: orNull(sample.payment_id),
      request_id: orNull(sample.request_id),
      global_request_id: orNull(sample.global_request_id),
      trace_id: orNull(sample.trace_id),
      gateway: orNull(sample.gateway),
      routing_approach: orNull(sample.routing_approach),
      status: orNull(sample.status),
      error_code: orNull(sample.error_code),
      error_message: orNull(sample.error_message),
      flow_type: sample.flow_type,
      created_at_ms: sample.created_at_ms,
    })),
    page: query.page,
    page_size: query.pageSize,
  };
}
