/**
 * A PSP's error for one payment attempt, as score feedback reports it (decision-engine's
 * `errorInfo`, camelCase). `connector` is always the gateway the feedback is about: the score being
 * protected is that gateway's.
 */
export interface GsmErrorQuery {
  readonly connector: string;
  readonly flow?: string | null;
  readonly subFlow?: string | null;
  readonly errorCode?: string | null;
  readonly errorMessage?: string | null;
  /** The issuer's response code (ISO 8583 field 39 style, e.g. `51`), used with `cardNetwork`. */
  readonly issuerErrorCode?: string | null;
  readonly cardNetwork?: string | null;
}

/** How a PSP error was classified: the rule that matched and where it came from. */
export interface GsmMatch {
  readonly source: 'merchant_rule' | 'default_map';
  /** `retry` or `do_default` (decision-engine's retry advice; merchant rules give `do_default`). */
  readonly decision: 'retry' | 'do_default';
  /** The unified class; null when the matched default row has none. */
  readonly unifiedCode: string | null;
  readonly unifiedMessage: string | null;
  readonly stepUpPossible: boolean;
  readonly errorCategory: string | null;
}

/** decision-engine's issuer lookup key: `Network:<network>|IssuerCode:<code, 2 digits at least>`. */
export function issuerLookupKey(cardNetwork: string, issuerErrorCode: string): string {
  return `Network:${cardNetwork}|IssuerCode:${issuerErrorCode.padStart(2, '0')}`;
}
