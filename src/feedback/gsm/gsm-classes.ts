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
 * on and it sets no list of its own: issuer/customer-side declines only, as decision-engine does.
 * Configuration and integration failures still count by default: they repeat on every payment
 * routed to that gateway until the merchant fixes them, so routing away is what the merchant wants.
 */
export const defaultExcusedClasses: readonly GsmUnifiedCode[] = ['UE_1000'];

export function isGsmUnifiedCode(value: string | null | undefined): value is GsmUnifiedCode {
  return value !== null && value !== undefined && Object.hasOwn(gsmClasses, value);
}

/** decision-engine's message for a unified code; null for a code outside the five. */
export function unifiedMessageOf(unifiedCode: string | null): string | null {
  return isGsmUnifiedCode(unifiedCode) ? gsmClasses[unifiedCode].unifiedMessage : null;
}
