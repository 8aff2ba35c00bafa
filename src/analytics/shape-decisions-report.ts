import type { ParsedAnalyticsQuery } from '../ports/analytics/analytics-query.js';
import { orNull, type BucketCountFact, type CountFact } from './analytics-facts.js';
import type { DecisionsReport } from '../ports/analytics/analytics-reports.js';

/**
 * GET /analytics/decisions. Decision events are decisions plus decision failures; the error rate is
 * failures over all of them, as a percentage with two decimals ("0.00%" when there were none).
 */
export function shapeDecisionsReport(
  query: ParsedAnalyticsQuery,
  facts: {
    readonly decisions: number;
    readonly failures: number;
    readonly series: readonly BucketCountFact[];
    readonly approaches: readonly CountFact[];
  },
): DecisionsReport {
  const total = facts.decisions + facts.failures;
  const errorRate = total === 0 ? 0 : (facts.failures / total) * 100;
  return {
    merchant_id: query.merchantId,
    range: query.range,
    tiles: [
      { label: 'Decisions', value: String(facts.decisions), subtitle: 'Gateway decisions in the selected window' },
      { label: 'Error rate', value: `${errorRate.toFixed(2)}%`, subtitle: 'Failed decision requests / all decision events' },
    ],
    series: facts.series.map((fact) => ({ bucket_ms: fact.bucket_ms, routing_approach: orNull(fact.key), count: fact.count })),
    approaches: facts.approaches.map((fact) => ({ rule_name: fact.key, count: fact.count })),
  };
}
