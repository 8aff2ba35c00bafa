import type { GatewayCapability } from '../../generated/schema-types.js';

/**
 * What the legacy filter chain reads of a payment (from Euler's DomainDeciderRequest), normalised
 * once: method types, methods and brands upper-cased, absent values null.
 */
export interface LegacyTxn {
  readonly currency: string;
  readonly paymentMethodType: string;
  /** txnCardInfo.paymentMethod, else txnDetail.sourceObject; null when neither is sent. */
  readonly paymentMethod: string | null;
  readonly cardBrand: string | null;
  readonly authType: string | null;
  readonly isEmi: boolean;
  readonly emiBank: string | null;
  readonly emiTenure: number | null;
  readonly txnObjectType: string;
}

/**
 * One step of the chain: keeps the gateways whose capabilities accept the payment. Pure; a
 * capability list that is absent or null does not restrict.
 */
export interface GatewayFilter {
  /** decision-engine's filter name, as reported in `filter_list` and `filter_wise_gateways`. */
  readonly name: string;
  readonly accepts: (gateway: GatewayCapability, txn: LegacyTxn) => boolean;
}

/** Whether `value` is allowed by `allowed` (null/undefined = anything), ignoring case. */
export function allows(allowed: readonly string[] | null | undefined, value: string): boolean {
  if (allowed === null || allowed === undefined) return true;
  const wanted = value.toUpperCase();
  return allowed.some((item) => item.toUpperCase() === wanted);
}
