import type { PaymentDimensions } from '../../generated/schema-types.js';
import { sha256Hex } from './sha256-hex.js';

/** Customer ids whose key is remembered before the cache starts over. */
const maxCachedKeys = 16_384;
/**
 * The schemas' bound on a customer id: a longer one (from a caller that did not validate) is hashed
 * every time, so the cache stays under ~16 MiB (about 0.5 KiB an entry for a 40-character id, measured).
 */
const maxCachedIdLength = 255;
/** Raw customer id → key: in process memory only, where the request that carried the id already was. */
const keys = new Map<string, string>();

/**
 * The stored form of a customer id: SHA-256 (hex) of the id without surrounding blanks. Counts are
 * keyed and events carry only this, so no merchant's customer ids land in Redis keys, the event
 * spine or analytics (the peer keys its hash by the raw id).
 *
 * A returning customer's key comes from a bounded cache: no hash, and the same string every
 * time, whose own hash V8 keeps, so the sticky store's lookup by it costs no copy (bench/README.md,
 * "Sticky reads without a joined key"). A full cache starts over: a miss only costs the hash.
 */
export function customerKeyOf(customerId: string): string {
  if (customerId.length > maxCachedIdLength) return sha256Hex(customerId.trim());
  let key = keys.get(customerId);
  if (key === undefined) {
    if (keys.size >= maxCachedKeys) keys.clear();
    // Not node:crypto's hash: cheaper on a busy decision path (see sha256Hex).
    key = sha256Hex(customerId.trim());
    keys.set(customerId, key);
  }
  return key;
}

/** Combinations remembered per level (method, then type) before that level is dropped: callers' spellings are bounded so. */
const maxCachedCombos = 256;
/** As sent (method → type → combination): the cache is keyed by the raw strings, so casing and blanks still collapse in the value. */
const combos = new Map<string, Map<string, string>>();

/**
 * The payment-method combination a customer's counts are kept for: `<PAYMENT_METHOD>:<TYPE>`,
 * both upper-cased (decision and feedback must land on one count however a caller cased them)
 * and URI-encoded, so a `:` inside a part cannot make two combinations collide.
 */
export function stickyComboOf(payment: Pick<PaymentDimensions, 'paymentMethod' | 'paymentMethodType'>): string {
  // A handful of method × type pairs make nearly every payment: each combination is built once.
  let byType = combos.get(payment.paymentMethod);
  if (byType === undefined) {
    if (combos.size >= maxCachedCombos) combos.clear();
    byType = new Map();
    combos.set(payment.paymentMethod, byType);
  }
  let combo = byType.get(payment.paymentMethodType);
  if (combo === undefined) {
    if (byType.size >= maxCachedCombos) byType.clear();
    combo = `${encodeURIComponent(payment.paymentMethod.trim().toUpperCase())}:${encodeURIComponent(payment.paymentMethodType.trim().toUpperCase())}`;
    byType.set(payment.paymentMethodType, combo);
  }
  return combo;
}
