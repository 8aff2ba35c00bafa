/**
 * GET /analytics/routing-events (decision-engine's analyticsRoutingEvents): the query after parsing
 * (src/analytics/routing-events/parse-routing-events-query.ts) and the rows the store reads for it.
 */

/** A parsed routing-events request: every default applied, every bound enforced, the window absolute. */
export interface RoutingEventsQuery {
  /** The credential's merchant; never a query parameter. */
  readonly merchantId: string;
  /** Echoed as the response `range`: the preset, or `custom` when start_ms and end_ms applied. */
  readonly range: string;
  /** Window, epoch ms, inclusive; at most a week (an hour with 1 s buckets). */
  readonly startMs: number;
  readonly endMs: number;
  /** Score buckets: 5 min (default), 1 min (`bucket=1m`) or 1 s (`bucket=1s`). */
  readonly bucketMs: number;
  /** Exact-match filters; null = all. */
  readonly paymentMethodType: string | null;
  readonly paymentMethod: string | null;
  /** A gateway below this transaction count cannot lead (default 10). */
  readonly minTransactionCount: number;
  /** A still-eligible leader is replaced only when beaten by more than this (0..1 scale, default 0.01). */
  readonly minScoreDelta: number;
  /** Events answered at most (1..200, default 50). */
  readonly limit: number;
  /** `generated_at_ms` of the answer (the request's clock). */
  readonly nowMs: number;
}

/** The latest score snapshot of one gateway in one bucket and (payment method type, payment method). */
export interface ScoreBucketFact {
  readonly bucketMs: number;
  /** '' when the snapshot carried none. */
  readonly paymentMethodType: string;
  readonly paymentMethod: string;
  readonly gateway: string;
  /** Success-rate estimate, 0..1. */
  readonly score: number;
  /** The snapshot's `transaction_count` (the window's bucket size); null when absent. */
  readonly transactionCount: number | null;
}

/** One autopilot run that wrote the success-rate config (`autopilot.calibrated`, outcome applied). */
export interface CalibrationRunFact {
  readonly createdAtMs: number;
  /** The run's event payload as stored (JSON, possibly cut at the row's size limit). */
  readonly details: string;
}
