import type { ParsedAnalyticsQuery } from '../ports/analytics/analytics-query.js';
import { orNull, type ScorePointFact, type SnapshotFact } from './analytics-facts.js';
import type { GatewayScorePoint, GatewayScoreSnapshot, GatewayScoresReport } from '../ports/analytics/analytics-reports.js';

/**
 * Averages are rounded to 6 decimals: engines may add a bucket's scores in a different order, and
 * the last bits of a float sum would otherwise differ between ClickHouse server and chDB.
 */
export function roundScore(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

export function shapeSnapshot(merchantId: string, fact: SnapshotFact): GatewayScoreSnapshot {
  return {
    merchant_id: merchantId,
    payment_method_type: orNull(fact.payment_method_type),
    payment_method: orNull(fact.payment_method),
    gateway: orNull(fact.gateway),
    score_value: fact.score_value,
    sigma_factor: fact.sigma_factor,
    average_latency: fact.average_latency,
    tp99_latency: fact.tp99_latency,
    transaction_count: fact.transaction_count,
    last_updated_ms: fact.last_updated_ms,
  };
}

export function shapeScorePoint(merchantId: string, fact: ScorePointFact): GatewayScorePoint {
  return {
    bucket_ms: fact.bucket_ms,
    merchant_id: merchantId,
    payment_method_type: orNull(fact.payment_method_type),
    payment_method: orNull(fact.payment_method),
    gateway: orNull(fact.gateway),
    score_value: roundScore(fact.score_value),
  };
}

/** GET /analytics/gateway-scores: the latest snapshot per (PMT, PM, gateway) and the last snapshot of each bucket. */
export function shapeGatewayScoresReport(
  query: ParsedAnalyticsQuery,
  facts: { readonly snapshots: readonly SnapshotFact[]; readonly series: readonly ScorePointFact[] },
): GatewayScoresReport {
  return {
    merchant_id: query.merchantId,
    range: query.range,
    snapshots: facts.snapshots.map((fact) => shapeSnapshot(query.merchantId, fact)),
    series: facts.series.map((fact) => shapeScorePoint(query.merchantId, fact)),
  };
}
