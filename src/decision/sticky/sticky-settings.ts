/**
 * The tunable numbers of sticky routing (docs/sticky-routing.md), passed in like RoutingDefaults so
 * a deployment or a test can change one without touching code. The peer's knobs (its open #419 and
 * #412) with its defaults, except the lookup deadline, which the peer does not have.
 */
export interface StickySettings {
  /** Sliding life of a customer's counts after its last success, in seconds. */
  readonly keyTtlSeconds: number;
  /** Most combination × connector counts one customer keeps (the lowest go first). */
  readonly maxEntriesPerCustomer: number;
  /** A counted connector is pinned only while its final score is at least this share of the top score. */
  readonly minScoreRatio: number;
  /** How long a decision waits for the counts before deciding without them (fail-open), in ms. */
  readonly lookupTimeoutMs: number;
}

export const defaultStickySettings: StickySettings = Object.freeze({
  // 90 days: the peer's STICKY_ROUTING_KEY_TTL default.
  keyTtlSeconds: 90 * 24 * 60 * 60,
  // 30: the peer's STICKY_ROUTING_MAX_COMBOS_PER_CUSTOMER default.
  maxEntriesPerCustomer: 30,
  // 0.5: the peer's STICKY_ROUTING_MIN_SCORE_RATIO default.
  minScoreRatio: 0.5,
  // 25 ms: a Redis HGETALL of one small hash answers in well under a millisecond on a healthy
  // network; 25 ms is the slow-store case, and bounds what a sticky payment can add to a decision.
  lookupTimeoutMs: 25,
});
