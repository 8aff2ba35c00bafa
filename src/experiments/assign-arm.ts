export type ExperimentArm = 'control' | 'variant';

const encoder = new TextEncoder();
const mask64 = (1n << 64n) - 1n;

/**
 * The arm of one payment: djb2 over the payment id's UTF-8 bytes (64-bit wrapping, as the peer
 * computes it), modulo 100, against the variant's percent. Deterministic, so every retry of a
 * payment lands in the same arm, and a payment gets the arm decision-engine would give it.
 */
export function assignArm(paymentId: string, variantSplitPct: number): ExperimentArm {
  let hash = 5381n;
  for (const byte of encoder.encode(paymentId)) hash = (hash * 33n + BigInt(byte)) & mask64;
  return Number(hash % 100n) < variantSplitPct ? 'variant' : 'control';
}
