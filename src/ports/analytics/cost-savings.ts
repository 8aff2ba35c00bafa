/**
 * One row of the cost-savings read (GET /analytics/cost-savings): the merchant's decisions on which
 * the cost-aware (multi-objective) post-step ran, summed per currency, time bucket and whether the
 * row passes the query's filters other than `currency`. src/analytics/shape-cost-savings-report.ts
 * turns these rows into the report; keeping the split lets one statement serve the currency list
 * (which no filter narrows) and the chosen currency's totals and trend.
 */
export interface CostSavingsFact {
  /** The payment's currency ('' when the decision had none). */
  readonly currency: string;
  /** Bucket start, epoch ms (a multiple of the query's bucket width). */
  readonly bucketMs: number;
  /** The rows pass the dimension and gateway filters (currency excepted). */
  readonly inFilters: boolean;
  /** Decisions the post-step ran on (COST_WON or AUTH_WON). */
  readonly decisions: number;
  /** Decisions where a cheaper gateway was promoted over the SR head. */
  readonly costWon: number;
  /** Cost-won decisions with a positive saving. */
  readonly savedDecisions: number;
  /** Money saved against the SR head, in `currency` (sum of the events' `savedValue` on COST_WON). */
  readonly savedValue: number;
  /** The saving net of the approvals expected to be lost (sum of the events' `netValue` on COST_WON). */
  readonly netValue: number;
  /** Expected approvals lost against the SR head (sum of the events' `approvalsLost` on COST_WON). */
  readonly approvalsLost: number;
  /** Cost-won decisions whose event carries `netValue` (events written before it existed do not). */
  readonly netKnownDecisions: number;
}
