/**
 * The unified error classes of decision-engine's gateway status map (GSM), by code. Each names who
 * a failed payment is on: the payment method's issuer or its customer (UE_1000), the merchant's
 * configuration at the PSP (UE_2000), the PSP itself (UE_3000), the merchant's integration
 * (UE_4000), or nobody known (UE_9000).
 */
export const gsmUnifiedCodes = ['UE_1000', 'UE_2000', 'UE_3000', 'UE_4000', 'UE_9000'] as const;

export type GsmUnifiedCode = (typeof gsmUnifiedCodes)[number];

/**
 * One merchant override of the status map: a PSP error it matches and the class it puts the error
 * in. Unset match fields match anything, but a rule names at least an error code, a message or an
 * issuer code (the HTTP schema enforces it), so no rule swallows every error of a PSP by accident.
 */
export interface GsmOverrideRule {
  /** The gateway (PSP) the rule is for, compared case-insensitively; unset = every gateway. */
  readonly connector?: string | null;
  /** The PSP's error code, exactly. */
  readonly errorCode?: string | null;
  /** The PSP's error message, exactly (surrounding spaces ignored). */
  readonly errorMessage?: string | null;
  /** The issuer's response code (e.g. `51`), with `cardNetwork` when the rule is network-specific. */
  readonly issuerErrorCode?: string | null;
  readonly cardNetwork?: string | null;
  readonly unifiedCode: GsmUnifiedCode;
  /** A 3-D Secure step-up would let the payment through: the gateway worked, like an issuer-side class. */
  readonly stepUpPossible?: boolean | null;
}

/**
 * A merchant's status-map settings (ConfigStore document `gsmRules`): override rules, tried in order
 * before the shipped default map, and the classes whose failures do not count against a gateway when
 * the `gsm-scoring-filter` feature is on. Absent = no overrides and the default excused classes.
 */
export interface MerchantGsmRules {
  readonly rules: readonly GsmOverrideRule[];
  /** Unset = the default, issuer/customer-side only (`UE_1000`, decision-engine's behaviour). */
  readonly excusedClasses?: readonly GsmUnifiedCode[] | null;
}
