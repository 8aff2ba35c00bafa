import type { ParsedAnalyticsQuery } from '../ports/analytics/analytics-query.js';
import type { ApprovalGatewayFact, ApprovalPointFact, CountFact, DeclineReasonFact, ErrorFact, SnapshotFact } from './analytics-facts.js';
import { analyticsFlows, routeHitFlows } from './analytics-flows.js';
import type { OverviewReport } from '../ports/analytics/analytics-reports.js';
import { shapeApproval } from './shape-approval.js';
import { shapeErrorSummary } from './shape-log-summaries-report.js';
import { shapeSnapshot } from './shape-score-reports.js';

/** How many entries the overview's top lists keep (reference: ≤5 each). */
export const overviewTopLimit = 5;

/**
 * GET /analytics/overview. `smart_retry_stats` is always zero: no Switchyard event records a smart
 * retry yet, and the reference shape requires the object. Beyond the reference shape: the window,
 * and payment approval from score feedback (overall, per gateway, per bucket, decline reasons),
 * so the dashboard and API clients read one set of numbers.
 */
export function shapeOverviewReport(
  query: ParsedAnalyticsQuery,
  facts: {
    readonly flowCounts: readonly CountFact[];
    readonly topScores: readonly SnapshotFact[];
    readonly topErrors: readonly ErrorFact[];
    readonly topRules: readonly CountFact[];
    readonly approvalGateways: readonly ApprovalGatewayFact[];
    readonly approvalSeries: readonly ApprovalPointFact[];
    readonly declineReasons: readonly DeclineReasonFact[];
  },
): OverviewReport {
  const approval = shapeApproval({ gateways: facts.approvalGateways, series: facts.approvalSeries, declines: facts.declineReasons });
  const counts = new Map(facts.flowCounts.map((fact) => [fact.key, fact.count]));
  const countOf = (flows: readonly string[]) => flows.reduce((sum, flow) => sum + (counts.get(flow) ?? 0), 0);
  return {
    merchant_id: query.merchantId,
    kpis: [
      {
        label: `Decision events / ${query.range}`,
        value: String(countOf([analyticsFlows.decision])),
        subtitle: 'Counts decision events, not unique payments',
      },
      { label: 'Score snapshots', value: String(countOf(analyticsFlows.snapshots)), subtitle: 'Latest gateway score updates' },
      { label: 'Rule hits', value: String(countOf([analyticsFlows.ruleHit])), subtitle: 'Priority-logic hits' },
      { label: 'Errors', value: String(countOf(analyticsFlows.errors)), subtitle: 'Structured failure summaries' },
    ],
    route_hits: routeHitFlows.map(({ route, flowType }) => ({ route, count: countOf([flowType]) })),
    top_scores: facts.topScores.map((fact) => shapeSnapshot(query.merchantId, fact)),
    top_errors: facts.topErrors.map(shapeErrorSummary),
    top_rules: facts.topRules.map((fact) => ({ rule_name: fact.key, count: fact.count })),
    smart_retry_stats: { retried_count: 0, recovered_count: 0, by_trigger: [], by_fallback: [] },
    start_ms: query.startMs,
    end_ms: query.endMs,
    bucket_ms: query.bucketMs,
    ...approval,
  };
}
