import type { GsmUnifiedCode } from '../../ports/state/gsm-rules.js';

/** Who a failure of a class is on (our reading of decision-engine's unified classes). */
export type FailureSide = 'issuer_customer' | 'merchant_configuration' | 'psp' | 'merchant_integration' | 'unknown';

export interface GsmClass {
  readonly unifiedCode: GsmUnifiedCode;
  /** decision-engine's `unified_message` of the class, sent on the wire as it spells it. */
  readonly unifiedMessage: string;
  readonly side: FailureSide;
}

/** The five unified classes, in code order. */
export const gsmClasses: Readonly<Record<GsmUnifiedCode, GsmClass>> = {
  UE_1000: { unifiedCode: 'UE_1000', unifiedMessage: 'Issue with Payment Method details', side: 'issuer_customer' },
  UE_2000: { unifiedCode: 'UE_2000', unifiedMessage: 'Issue with Configurations', side: 'merchant_configuration' },
  UE_3000: { unifiedCode: 'UE_3000', unifiedMessage: 'Technical issue with PSP', side: 'psp' },
  UE_4000: { unifiedCode: 'UE_4000', unifiedMessage: 'Issue with Integration', side: 'merchant_integration' },
  UE_9000: { unifiedCode: 'UE_9000', unifiedMessage: 'Something went wrong', side: 'unknown' },
};

/**
 * Classes whose failures do not count against a gateway when the merchant's `gsm-scoring-filter` is
 * on and it sets no list of its own: every class that names someone other than the PSP (issuer or
 * customer, the merchant's configuration, the merchant's integration). So by default only PSP-side
 * failures (UE_3000) and failures nobody can place (UE_9000, unmapped) lower a score. A merchant
 * that wants configuration failures to route traffic away too (they repeat on that PSP until fixed)
 * narrows the list to ['UE_1000'], decision-engine's own behaviour.
 */
export const defaultExcusedClasses: readonly GsmUnifiedCode[] = ['UE_1000', 'UE_2000', 'UE_4000'];

export function isGsmUnifiedCode(value: string | null | undefined): value is GsmUnifiedCode {
  return value !== null && value !== undefined && Object.hasOwn(gsmClasses, value);
}

/** decision-engine's message for a unified code; null for a code outside the five. */
export function unifiedMessageOf(unifiedCode: string | null): string | null {
  return isGsmUnifiedCode(unifiedCode) ? gsmClasses[unifiedCode].unifiedMessage : null;
}
