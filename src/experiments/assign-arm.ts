export type ExperimentArm = 'control' | 'variant';

const encoder = new TextEncoder();
const two32 = 0x1_0000_0000;

/**
 * The arm of one payment: djb2 over the payment id's UTF-8 bytes (64-bit wrapping, as the peer
 * computes it), modulo 100, against the variant's percent. Deterministic, so every retry of a
 * payment lands in the same arm, and a payment gets the arm decision-engine would give it.
 *
 * The 64-bit hash is kept as two unsigned 32-bit halves in plain numbers (every intermediate stays
 * below 2^53, so the arithmetic is exact): no BigInt per byte, and an ASCII id (the usual payment
 * id) is read by char code without being encoded first. The halves are carried with integer
 * operations (a division by 2^32 truncated, `>>> 0`, Math.imul): a `Math.floor` and two `%` on
 * doubles per byte cost several times more on every payment in an experiment.
 */
export function assignArm(paymentId: string, variantSplitPct: number): ExperimentArm {
  const bytes = isAscii(paymentId) ? undefined : encoder.encode(paymentId);
  const length = bytes === undefined ? paymentId.length : bytes.length;
  let hi = 0;
  let lo = 5381;
  for (let i = 0; i < length; i++) {
    // lo · 33 + byte < 2^38: exact, and its bits above 32 are the carry into the high half.
    const low = lo * 33 + (bytes === undefined ? paymentId.charCodeAt(i) : (bytes[i] as number));
    const carry = (low / two32) | 0;
    lo = low >>> 0;
    hi = (Math.imul(hi, 33) + carry) >>> 0;
  }
  // (hi · 2^32 + lo) mod 100, with 2^32 ≡ 96 (mod 100).
  return ((hi % 100) * 96 + lo) % 100 < variantSplitPct ? 'variant' : 'control';
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}
