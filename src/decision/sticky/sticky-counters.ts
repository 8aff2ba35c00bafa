import type { StickyOutcome } from './sticky-info.js';

/** Every outcome, in the order /metrics lists them. */
export const stickyOutcomes: readonly StickyOutcome[] = ['pinned', 'vetoed', 'no_state', 'store_timeout', 'store_error', 'not_applicable'];

/**
 * Process-wide counts of sticky-routing decisions, read by GET /metrics
 * (`switchyard_sticky_routing_decisions_total{outcome}` and
 * `switchyard_sticky_routing_overrides_total`). Built once by the composition root and shared by
 * the decision use case and the metrics route. Counted only when sticky routing was on for the
 * payment and it named a customer.
 *
 * @remarks The failure outcomes (`store_timeout`, `store_error`) are the only place the fail-open
 * lookup shows: the decision itself answers normally.
 */
export class StickyRoutingCounters {
  // One field per outcome, not a Map: counting is a property increment on every sticky decision,
  // where a Map's get and set were two more hash lookups.
  readonly #decisions: Record<StickyOutcome, number> = { pinned: 0, vetoed: 0, no_state: 0, store_timeout: 0, store_error: 0, not_applicable: 0 };
  #overrides = 0;

  /** Counts one decision's outcome; `overridden` when the pin replaced another gateway. */
  count(outcome: StickyOutcome, overridden = false): void {
    this.#decisions[outcome] += 1;
    if (overridden) this.#overrides += 1;
  }

  /** Decisions per outcome (every outcome listed, 0 when none). */
  decisions(): ReadonlyMap<StickyOutcome, number> {
    return new Map(stickyOutcomes.map((outcome) => [outcome, this.#decisions[outcome]]));
  }

  /** Pins that replaced the gateway the decision had (a pin agreeing with it is not an override). */
  overrides(): number {
    return this.#overrides;
  }
}
