import type { DomainEventRow } from '../ports/analytics/analytics-rows.js';

/**
 * What a store reads from its engine before the domain shapes a response: rows in the stored
 * vocabulary ('' for an absent string), counts as plain numbers. Produced by adapters, consumed by
 * the `shape-*` functions, so every engine answers through the same shaping code.
 */

export interface SnapshotFact {
  readonly payment_method_type: string;
  readonly payment_method: string;
  readonly gateway: string;
  readonly score_value: number | null;
  readonly sigma_factor: number | null;
  readonly average_latency: number | null;
  readonly tp99_latency: number | null;
  readonly transaction_count: number | null;
  readonly last_updated_ms: number;
}

export interface ScorePointFact {
  readonly bucket_ms: number;
  readonly payment_method_type: string;
  readonly payment_method: string;
  readonly gateway: string;
  readonly score_value: number;
}

export interface ErrorFact {
  readonly route: string;
  readonly error_code: string;
  readonly error_message: string;
  readonly count: number;
  readonly last_seen_ms: number;
}

export interface CountFact {
  /** The grouped value: a flow type, rule name, routing approach or gateway. */
  readonly key: string;
  readonly count: number;
}

export interface BucketCountFact {
  readonly bucket_ms: number;
  readonly key: string;
  readonly count: number;
}

export interface LogSampleFact {
  readonly route: string;
  readonly payment_id: string;
  readonly request_id: string;
  readonly global_request_id: string;
  readonly trace_id: string;
  readonly gateway: string;
  readonly routing_approach: string;
  readonly status: string;
  readonly error_code: string;
  readonly error_message: string;
  readonly flow_type: string;
  readonly created_at_ms: number;
}

export interface AuditResultFact {
  readonly lookup_key: string;
  readonly payment_id: string;
  readonly request_id: string;
  readonly first_seen_ms: number;
  readonly last_seen_ms: number;
  readonly event_count: number;
  readonly latest_status: string;
  readonly latest_gateway: string;
  readonly latest_stage: string;
  readonly gateways: readonly string[];
  readonly routes: readonly string[];
}

export interface AuditTotalsFact {
  readonly total_results: number;
  readonly total_success: number;
  readonly total_failure: number;
}

/** One stored event of a payment's timeline: the domain row's own columns, as the read selects them. */
export type TimelineFact = Pick<
  DomainEventRow,
  | 'event_id'
  | 'flow_type'
  | 'event_stage'
  | 'route'
  | 'payment_id'
  | 'request_id'
  | 'global_request_id'
  | 'trace_id'
  | 'payment_method_type'
  | 'payment_method'
  | 'gateway'
  | 'routing_approach'
  | 'rule_name'
  | 'status'
  | 'error_code'
  | 'error_message'
  | 'score_value'
  | 'sigma_factor'
  | 'average_latency'
  | 'tp99_latency'
  | 'transaction_count'
  | 'details'
  | 'created_at_ms'
>;

/** Distinct values seen per filterable column (routing-stats `available_filters`). */
export type FilterValuesFact = Readonly<Record<string, readonly string[]>>;

/** '' is how rows store "absent"; responses say null. */
export function orNull(value: string): string | null {
  return value === '' ? null : value;
}

/** Approval per gateway over the window's attempts (payment, gateway); see sql/approval-sql.ts. */
export interface ApprovalGatewayFact {
  readonly gateway: string;
  readonly attempts: number;
  readonly decisions: number;
  readonly approved: number;
  readonly declined: number;
  readonly pending: number;
  readonly latency_samples: number;
  readonly latency_sum_ms: number;
}

export interface ApprovalPointFact {
  readonly bucket_ms: number;
  readonly gateway: string;
  readonly approved: number;
  readonly declined: number;
}

export interface DeclineReasonFact {
  readonly gateway: string;
  readonly error_code: string;
  readonly error_message: string;
  readonly unified_code: string;
  readonly count: number;
  readonly last_seen_ms: number;
}
