import { defaultNetworkFeeTable, type NetworkFeeTable } from './network/network-fee-table.js';

/**
 * Every tunable number of the decision and feedback math. Merchant configs override some of them
 * per merchant; these are what applies when nothing is configured. Passed in (never imported by the
 * algorithms) so a deployment or a test can change one without touching code.
 */
export interface RoutingDefaults {
  /** Success-rate window length B, in outcomes. */
  readonly bucketSize: number;
  /** Percent (0–100) of SR decisions that deliberately avoid the top gateway. */
  readonly hedgingPercent: number;
  /** Whether volume hedging runs at all. */
  readonly volumeHedgingEnabled: boolean;
  /** Seconds after a decision during which a still-pending status is not yet a failure. */
  readonly latencyThresholdSeconds: number;
  /** Elimination score below which a gateway's routing score is divided. */
  readonly eliminationThreshold: number;
  readonly eliminationDivisor: number;
  /** Divisor for a gateway under a scheduled outage (kept for when an outage source exists). */
  readonly outageDivisor: number;
  /** Milliseconds after a decision within which reward / SR-failure feedback still counts. */
  readonly feedbackWindowMs: number;
  /** Elimination reward: score · (1 + rewardFactorPercent / 100), capped at 1. */
  readonly rewardFactorPercent: number;
  /** Elimination penalty: score · (1 − penaltyFactorPercent / 100). */
  readonly penaltyFactorPercent: number;
  /** Life of an elimination score after its last update; an expired score reads as 1.0. */
  readonly eliminationKeyTtlMs: number;
  /** Life of a success-rate window after its last outcome. */
  readonly windowTtlSeconds: number;
  /** How long a decision stays findable by feedback for the same payment. */
  readonly decisionContextTtlSeconds: number;
  /** How long a feedback's dedupe mark lives (so the same feedback twice counts once). */
  readonly feedbackDedupeTtlSeconds: number;
  /** Debit-routing fee model. */
  readonly networkFees: NetworkFeeTable;
}

/** The one place these numbers live. Sources are sections of reference/decision-engine.md. */
export const defaultRoutingDefaults: RoutingDefaults = Object.freeze({
  // 125 outcomes: DEFAULT_SR_V3_BASED_BUCKET_SIZE and the seeded SR_V3_INPUT_CONFIG_DEFAULT (§3.3, §10).
  bucketSize: 125,
  // 5 %: seeded SR_V3_INPUT_CONFIG_DEFAULT.defaultHedgingPercent and the code default (§3.3, §10).
  hedgingPercent: 5,
  // on: ENABLE_MERCHANT_ON_VOLUME_DISTRIBUTION_FEATURE_SR_V3 is seeded enableAll by oneclick.sh and CI (§3.3, §12.5).
  volumeHedgingEnabled: true,
  // 90 s: seeded defaultLatencyThreshold; the bare code default is 300 s (§3.3, §4.1).
  latencyThresholdSeconds: 90,
  // 0.05: last fallback of the elimination threshold chain (§3.5, §12.7).
  eliminationThreshold: 0.05,
  // ÷5: a below-threshold gateway stays a candidate, demoted (§3.5).
  eliminationDivisor: 5,
  // ÷10: update_score_for_outage (§3.2).
  outageDivisor: 10,
  // 10 min: min(gateway-wise latency default 10 min, 15 min service default) (§4.2).
  feedbackWindowMs: 10 * 60 * 1000,
  // 5.26 %: elimination reward factor (§4.2, §4.3).
  rewardFactorPercent: 5.26,
  // 5 %: elimination penalty factor (§4.2, §4.3).
  penaltyFactorPercent: 5,
  // 9,000,000 ms ≈ 2.5 h: elimination key hard TTL (§3.5, §4.2).
  eliminationKeyTtlMs: 9_000_000,
  // 10,000,000 s ≈ 115.7 days: SR v3 queue and score key TTL (§3.3, §10).
  windowTtlSeconds: 10_000_000,
  // 1800 s: gateway_scoring_data_<paymentId> TTL (§3.1 step 11).
  decisionContextTtlSeconds: 1800,
  // 1800 s: as long as the decision context; later feedback finds no decision, so no mark is needed (§4.2).
  feedbackDedupeTtlSeconds: 1800,
  // [debit_routing_config] of config/development.toml (§5.2).
  networkFees: defaultNetworkFeeTable,
});
