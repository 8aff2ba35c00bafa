/**
 * Logged decisions with their outcome, for offline (counterfactual) policy evaluation: a row of
 * `analytics_decision_policies` (migration 0007) joined with the payment's last score feedback for
 * the decided gateway. Read by POST /analytics/counterfactual.
 */
export interface LoggedDecisionQuery {
  readonly merchantId: string;
  /** Decisions made in [fromMs, toMs), epoch ms. */
  readonly fromMs: number;
  readonly toMs: number;
  /** Feedback that arrived before this still counts as a decision's outcome (epoch ms, ≥ toMs). */
  readonly feedbackUntilMs: number;
  /** At most this many decisions (oldest first). */
  readonly limit: number;
}

/** One row as the store answers it; `candidates` is the JSON list the event carried. */
export interface LoggedDecisionFact {
  readonly event_id: string;
  readonly created_at_ms: number;
  readonly payment_id: string;
  readonly gateway: string;
  /** The decision's routing approach (a post-step's: SR_SELECTION_VOLUME_COMMITMENT, STICKY_ROUTING, …). */
  readonly routing_approach: string;
  readonly window_dimension: string;
  readonly currency: string;
  readonly amount: number;
  readonly propensity: number;
  readonly hedged: number;
  readonly hedging_percent: number;
  readonly bucket_size: number | null;
  readonly elimination_threshold: number | null;
  readonly elimination_divisor: number;
  readonly multi_objective: number;
  readonly candidates: string;
  /** The last feedback status for (payment, decided gateway); '' when none arrived. */
  readonly feedback_status: string;
  /** When that feedback arrived, epoch ms; 0 when none. */
  readonly feedback_at_ms: number;
}
