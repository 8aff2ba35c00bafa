/**
 * A merchant's volume commitments (decision-engine #367, #375, #404, #411): the `volume_contract`
 * routing document in its stored (canonical) form, and the steering plan the forecaster publishes.
 *
 * Canonical form: every amount is an integer in minor currency units (a plain count for
 * `metric: volume`), `amount_units` is `minor`, and the tolerance is integer basis points. The
 * document holds contract facts only; goals, rewards and cycle windows are derived by the forecaster
 * (src/volume-commitment/commitments-of.ts).
 */

export type VolumeRoutingMode = 'pace_guarded' | 'volume_commitment';
export type CommitmentMetric = 'gmv' | 'volume';
export type BillingCycleType = 'calendar_month' | 'calendar_quarter' | 'calendar_year' | 'test_minutes';

export interface BillingCycle {
  readonly type: BillingCycleType;
  /** calendar_month: day of month 1–30; quarter: month in quarter 1–3; year: start month 1–12; test_minutes: cycle minutes 2–240. */
  readonly anchor: number;
  /** IANA zone the cycle's boundaries are midnights in. */
  readonly timezone: string;
  readonly proration: 'full_period';
}

export type Reward =
  | { readonly kind: 'flat'; readonly value: { readonly flat_amount: number } }
  | { readonly kind: 'percentage'; readonly value: { readonly rebate_bps: number } };

export interface Tier {
  /** `retroactive` pays `rebate_bps` on the whole period once crossed; `marginal` pays `rate_bps` above the threshold. */
  readonly kind: 'retroactive' | 'marginal';
  readonly rate: { readonly rebate_bps: number } | { readonly rate_bps: number };
  readonly threshold: number;
  /** The tier the merchant steers for: its threshold is the goal (exactly one per contract). */
  readonly targeted: boolean;
  readonly rebate_lag_days: number;
  readonly rebate_settlement: 'cash' | 'credit_note';
}

export type ContractTerms =
  | { readonly archetype: 'lumpsum'; readonly terms: { readonly target: number; readonly reward: Reward } }
  | { readonly archetype: 'tiered'; readonly terms: { readonly tiers: readonly Tier[] } };

export type VolumeContract = {
  readonly id: string;
  /** The PSP, as decisions name it (`gateway_name`). */
  readonly connector: string;
  readonly status: 'active' | 'inactive';
  readonly billing_cycle: BillingCycle;
} & ContractTerms;

/** The `data` of a `volume_contract` algorithm, canonical. */
export interface VolumeContractConfig {
  readonly schema_version: number;
  readonly routing_mode: VolumeRoutingMode;
  /** How much approval rate (basis points) a steered PSP may give up against the best one. */
  readonly tolerance_bps: number;
  readonly metric: CommitmentMetric;
  readonly currency: { readonly denomination: string; readonly amount_units: 'minor' };
  /** Expected total volume per day across every PSP, in the document's unit. */
  readonly expected_daily_traffic: number;
  readonly forecast_interval_secs?: number;
  readonly volume_contracts: readonly VolumeContract[];
}

/** One commitment the plan still chases. */
export interface PspPlan {
  readonly connector: string;
  readonly reward: number;
  /** Volume still owed this cycle. */
  readonly remaining: number;
  /** Volume needed per contract day from now on. */
  readonly neededDaily: number;
  /** Volume normal routing sends here per day, unaided (steered decisions excluded). */
  readonly routingGivesDaily: number;
  /** Normal routing alone does not deliver `neededDaily`. */
  readonly needsSteering: boolean;
  /** Share of eligible payments (0..1) to divert here; what the payment path samples. */
  readonly steerRate: number;
  readonly periodStartMs: number;
  /** Past this instant nothing is steered here (the volume would count toward the next cycle). */
  readonly periodEndMs: number;
  readonly daySecs: number;
}

/** A commitment the plan gave up, and why. */
export interface DroppedPsp {
  readonly connector: string;
  readonly remaining: number;
  readonly reward: number;
  readonly reason: string;
}

/**
 * What the forecaster publishes per merchant (config document `volumeCommitmentPlan`) and the
 * decision path reads through the config cache.
 */
export interface SteeringPlan {
  readonly merchantId: string;
  /** `vcr_<cycle start ms>`: one execution of the contract. */
  readonly runId: string;
  /** The routing algorithm (document) the plan was built from; a plan of a replaced document steers nothing. */
  readonly ruleId: string;
  /** The document's modifiedAt when the plan was built. */
  readonly contractAnchorMs: number;
  readonly computedAtMs: number;
  /** After this instant the plan steers nothing (a dead scheduler fails safe). */
  readonly staleAfterMs: number;
  /** Tolerance as a fraction (bps / 10,000), in the units of the gateway scores. */
  readonly tolerance: number;
  /** Chased commitments, highest reward first (the first eligible one wins a contested payment). */
  readonly psps: readonly PspPlan[];
  readonly dropped: readonly DroppedPsp[];
  /** Total volume per day measured across every committed PSP over the pace window (null before any). */
  readonly measuredDailyTraffic: number | null;
}
