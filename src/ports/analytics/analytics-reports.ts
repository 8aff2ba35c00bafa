/**
 * Response bodies of the seven /analytics/* reads, field for field the snake_case shapes of
 * decision-engine 1.4.x (reference §7.4). Absent strings are null, never ''.
 */

export interface KpiTile {
  readonly label: string;
  readonly value: string;
  readonly subtitle: string;
}

export interface RouteHit {
  readonly route: string;
  readonly count: number;
}

export interface RuleCount {
  readonly rule_name: string;
  readonly count: number;
}

export interface GatewayScoreSnapshot {
  readonly merchant_id: string;
  readonly payment_method_type: string | null;
  readonly payment_method: string | null;
  readonly gateway: string | null;
  readonly score_value: number | null;
  readonly sigma_factor: number | null;
  readonly average_latency: number | null;
  readonly tp99_latency: number | null;
  readonly transaction_count: number | null;
  readonly last_updated_ms: number;
}

/** One bucket of a score series: the last snapshot in the bucket (a score is a state, not averaged). */
export interface GatewayScorePoint {
  readonly bucket_ms: number;
  readonly merchant_id: string;
  readonly payment_method_type: string | null;
  readonly payment_method: string | null;
  readonly gateway: string | null;
  readonly score_value: number;
}

export interface ErrorSummary {
  readonly route: string | null;
  readonly error_code: string | null;
  readonly error_message: string | null;
  readonly count: number;
  readonly last_seen_ms: number;
}

export interface SmartRetryStats {
  readonly retried_count: number;
  readonly recovered_count: number;
  readonly by_trigger: readonly { readonly label: string; readonly count: number }[];
  readonly by_fallback: readonly { readonly label: string; readonly count: number }[];
}

/**
 * Payment approval counts of attempts (one payment routed to one gateway): approved and declined
 * from the latest score feedback's outcome, pending when that feedback is neither, and no outcome
 * yet when no feedback arrived. `approval_rate` = approved / (approved + declined), null without
 * either: an attempt without an outcome is never counted as approved.
 */
export interface ApprovalCounts {
  readonly attempts: number;
  readonly approved: number;
  readonly declined: number;
  readonly pending: number;
  readonly no_outcome: number;
  readonly approval_rate: number | null;
}

export interface GatewayApproval extends ApprovalCounts {
  readonly gateway: string;
  /** Decisions that chose this gateway in the window. */
  readonly decisions: number;
  /** Mean `gatewayLatencyMs` of its feedback (`txnLatency.gatewayLatency`), null when none carried one. */
  readonly avg_latency_ms: number | null;
  readonly latency_samples: number;
}

export interface ApprovalPoint {
  readonly bucket_ms: number;
  readonly gateway: string;
  readonly approved: number;
  readonly declined: number;
  readonly approval_rate: number;
}

/** Declined attempts grouped by gateway, PSP error code and its gateway status map class. */
export interface DeclineReason {
  readonly gateway: string;
  readonly error_code: string | null;
  readonly error_message: string | null;
  readonly unified_code: string | null;
  readonly unified_message: string | null;
  /** Whose failure the class says it is, in words (docs/gsm.md); null without a class. */
  readonly failure_side: string | null;
  readonly count: number;
  readonly last_seen_ms: number;
}

export interface OverviewReport {
  readonly merchant_id: string;
  readonly kpis: readonly KpiTile[];
  readonly route_hits: readonly RouteHit[];
  readonly top_scores: readonly GatewayScoreSnapshot[];
  readonly top_errors: readonly ErrorSummary[];
  readonly top_rules: readonly RuleCount[];
  readonly smart_retry_stats: SmartRetryStats;
  /** The window read, in epoch ms, and its series bucket: every bucket of it can be drawn, empty ones too. */
  readonly start_ms: number;
  readonly end_ms: number;
  readonly bucket_ms: number;
  readonly approval: ApprovalCounts;
  readonly gateway_approval: readonly GatewayApproval[];
  readonly approval_series: readonly ApprovalPoint[];
  readonly decline_reasons: readonly DeclineReason[];
}

export interface GatewayScoresReport {
  readonly merchant_id: string;
  readonly range: string;
  readonly snapshots: readonly GatewayScoreSnapshot[];
  readonly series: readonly GatewayScorePoint[];
}

export interface DecisionsReport {
  readonly merchant_id: string;
  readonly range: string;
  readonly tiles: readonly KpiTile[];
  readonly series: readonly { readonly bucket_ms: number; readonly routing_approach: string | null; readonly count: number }[];
  readonly approaches: readonly RuleCount[];
}

export interface DimensionValues {
  readonly key: string;
  readonly label: string;
  readonly values: readonly string[];
}

export interface RoutingStatsReport {
  readonly merchant_id: string;
  readonly range: string;
  readonly gateway_share: readonly { readonly bucket_ms: number; readonly gateway: string | null; readonly count: number }[];
  readonly top_rules: readonly RuleCount[];
  readonly sr_trend: readonly GatewayScorePoint[];
  readonly available_filters: {
    readonly dimensions: readonly DimensionValues[];
    readonly missing_dimensions: readonly { readonly key: string; readonly label: string }[];
    readonly gateways: readonly string[];
  };
}

export interface LogSample {
  readonly route: string | null;
  readonly merchant_id: string;
  readonly payment_id: string | null;
  readonly request_id: string | null;
  readonly global_request_id: string | null;
  readonly trace_id: string | null;
  readonly gateway: string | null;
  readonly routing_approach: string | null;
  readonly status: string | null;
  readonly error_code: string | null;
  readonly error_message: string | null;
  readonly flow_type: string;
  readonly created_at_ms: number;
}

export interface LogSummariesReport {
  readonly merchant_id: string;
  readonly range: string;
  readonly total_errors: number;
  readonly errors: readonly ErrorSummary[];
  readonly samples: readonly LogSample[];
  readonly page: number;
  readonly page_size: number;
}

export interface AuditResult {
  readonly lookup_key: string;
  readonly payment_id: string | null;
  readonly request_id: string | null;
  readonly merchant_id: string;
  readonly first_seen_ms: number;
  readonly last_seen_ms: number;
  readonly event_count: number;
  readonly latest_status: string | null;
  readonly latest_gateway: string | null;
  readonly latest_stage: string | null;
  readonly gateways: readonly string[];
  readonly routes: readonly string[];
}

export interface AuditTimelineEntry {
  readonly id: string;
  readonly flow_type: string;
  readonly event_stage: string | null;
  readonly route: string | null;
  readonly merchant_id: string;
  readonly payment_id: string | null;
  readonly request_id: string | null;
  readonly global_request_id: string | null;
  readonly trace_id: string | null;
  readonly payment_method_type: string | null;
  readonly payment_method: string | null;
  readonly gateway: string | null;
  readonly routing_approach: string | null;
  readonly rule_name: string | null;
  readonly status: string | null;
  readonly error_code: string | null;
  readonly error_message: string | null;
  readonly score_value: number | null;
  readonly sigma_factor: number | null;
  readonly average_latency: number | null;
  readonly tp99_latency: number | null;
  readonly transaction_count: number | null;
  /** The stored details JSON string. */
  readonly details: string | null;
  /** `details` parsed; null when absent or cut short. */
  readonly details_json: unknown;
  readonly created_at_ms: number;
}

/** Body of both payment-audit (dynamic flows) and preview-trace (evaluate/preview flows). */
export interface PaymentAuditReport {
  readonly merchant_id: string;
  readonly range: string;
  readonly payment_id: string | null;
  readonly request_id: string | null;
  readonly gateway: string | null;
  readonly route: string | null;
  readonly status: string | null;
  readonly flow_type: string | null;
  readonly routing_approach: string | null;
  readonly error_code: string | null;
  readonly page: number;
  readonly page_size: number;
  readonly total_results: number;
  readonly total_success: number;
  readonly total_failure: number;
  readonly results: readonly AuditResult[];
  readonly timeline: readonly AuditTimelineEntry[];
}
