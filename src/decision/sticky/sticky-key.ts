import type { PaymentDimensions } from '../../generated/schema-types.js';
import { sha256Hex } from './sha256-hex.js';

/**
 * The stored form of a customer id: SHA-256 (hex) of the id without surrounding blanks. Counts are
 * keyed and events carry only this, so no merchant's customer ids land in Redis keys, the event
 * spine or analytics (the peer keys its hash by the raw id).
 */
export function customerKeyOf(customerId: string): string {
  // Not node:crypto's hash: cheaper on a busy decision path (see sha256Hex).
  return sha256Hex(customerId.trim());
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
