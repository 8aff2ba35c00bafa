/**
 * What the analytics store reads for routing experiments (`ab_test` algorithms): per-arm sums over
 * payments whose decision recorded the experiment (decision.created `experiment`), joined with
 * their score feedback by payment id. The statistics are computed in src/experiments/, not in SQL.
 */

/** Which experiment and window; always scoped to the merchant. */
export interface ExperimentQuery {
  readonly merchantId: string;
  readonly experimentId: string;
  /** Epoch ms, inclusive. */
  readonly startMs: number;
  readonly endMs: number;
  /** Only the payments this endpoint routed into the experiment; absent: every endpoint. */
  readonly endpoint?: 'hybrid_routing' | 'decide_gateway' | 'evaluate';
}

/** One arm's sums. A payment counts once, whatever its retries. */
export interface ExperimentArmFacts {
  readonly arm: 'control' | 'variant';
  /** Payments routed into the arm (decision recorded). */
  readonly assigned: number;
  /** Payments with at least one success or failure feedback: the test's sample. */
  readonly resolved: number;
  /** Payments with a success feedback on any attempt. */
  readonly successes: number;
  /** Payments whose first feedback was a success. */
  readonly firstAttemptSuccesses: number;
  /** Mean decision latency (ms) over assigned payments; null when none recorded one. */
  readonly avgLatencyMs: number | null;
  /** Resolved payments whose decision carried a positive chosen cost (bps): cost data. */
  readonly costPayments: number;
  readonly chosenCostBpsSum: number;
  readonly costSavedBpsSum: number;
  /** Σ saved bps and Σ saved bps² over successful payments (the EV test's moments). */
  readonly savedSuccessSum: number;
  readonly savedSuccessSquareSum: number;
  /** Σ saved bps / 10⁴ × amount over successful payments (money). */
  readonly totalCostSaved: number;
}

/**
 * What the guardrail's test reads of one arm: the cut of {@link ExperimentArmFacts} it needs, over the
 * same payments, so the numbers are the same.
 */
export type ExperimentArmOutcomes = Pick<ExperimentArmFacts, 'arm' | 'assigned' | 'resolved' | 'successes'>;

/** One payment of an experiment. */
export interface ExperimentTransactionFact {
  readonly payment_id: string;
  readonly variant_arm: string;
  readonly gateway: string;
  /** The latest feedback status, '' when none arrived yet. */
  readonly status: string;
  readonly created_at_ms: number;
}

export interface ExperimentAnalytics {
  /** Per-arm sums (an arm without payments is absent). */
  experimentArms(query: ExperimentQuery): Promise<readonly ExperimentArmFacts[]>;
  /**
   * Per-arm counts only (an arm without payments is absent): what the scheduled guardrail check
   * reads every minute while the experiment runs, at a fraction of experimentArms' cost on a large one.
   */
  experimentArmOutcomes(query: ExperimentQuery): Promise<readonly ExperimentArmOutcomes[]>;
  /** A page of payments, newest decision first, and how many there are. */
  experimentTransactions(
    query: ExperimentQuery & { readonly limit: number; readonly offset: number },
  ): Promise<{ readonly total: number; readonly transactions: readonly ExperimentTransactionFact[] }>;
}
