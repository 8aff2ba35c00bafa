/**
 * One customer of one merchant, as the sticky-routing counts know them: the customer id is never
 * stored or keyed verbatim, only its SHA-256 (src/decision/sticky/sticky-key.ts), so neither Redis
 * keys nor events carry a merchant's customer ids.
 */
export interface StickyCustomer {
  readonly merchantId: string;
  /** SHA-256 (hex) of the trimmed customer id. */
  readonly customerKey: string;
}

/** One change to a customer's habit count on one connector for one payment-method combination. */
export interface StickyAdjustment {
  readonly customer: StickyCustomer;
  /** `<PAYMENT_METHOD>:<PAYMENT_METHOD_TYPE>` (upper-cased; src/decision/sticky/sticky-key.ts). */
  readonly combo: string;
  readonly connector: string;
  /** +1 for a success, −1 for a gateway failure (the count is floored at 0 and a 0 is removed). */
  readonly delta: 1 | -1;
  /** Sliding life of the customer's counts: every success re-arms it; a customer idle this long is forgotten. */
  readonly ttlSeconds: number;
  /** At most this many combination × connector counts per customer: a new one beyond it drops the lowest counts. */
  readonly maxEntries: number;
  /** The same feedback applied twice changes the count once (events are delivered at least once). */
  readonly dedupeKey: string;
  readonly dedupeTtlSeconds: number;
}

/**
 * Per-customer net success counts for sticky routing (issue 36): how often each connector
 * succeeded minus how often it failed for one customer paying with one payment method and type.
 * The sr-windows worker writes them from the same feedback that moves the success-rate windows; the
 * decision reads one customer's counts when sticky routing is on for the payment.
 *
 * @remarks Only positive counts exist: a failure never creates a count, and a count that reaches 0 is
 * removed. No listing or delete API: nothing needs one, and the TTL bounds what is kept. The embedded
 * adapter keeps the counts in process memory only (a restart forgets the habits, as a fresh customer).
 */
export interface StickyStore {
  /** The customer's positive counts for `combo`, connector → count (empty when none or expired). */
  read(customer: StickyCustomer, combo: string): Promise<ReadonlyMap<string, number>>;
  /**
   * The same read, answered synchronously: offered only by a store that answers from process memory
   * (the embedded one), so a decision needs neither the fail-open deadline nor an await. A remote
   * store leaves it out.
   */
  readonly readNow?: (customer: StickyCustomer, combo: string) => ReadonlyMap<string, number>;
  /**
   * Applies one adjustment atomically (concurrent feedback for one customer never loses a count).
   * `applied` is false when the dedupe key was seen before or a failure found nothing to subtract;
   * `count` is the connector's count afterwards.
   */
  adjust(adjustment: StickyAdjustment): Promise<{ readonly applied: boolean; readonly count: number }>;
}
