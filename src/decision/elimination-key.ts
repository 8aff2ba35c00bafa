import { keyComponent } from './key-component.js';

const eliminationKeyPrefix = 'gw_score';

/** What an elimination key is built from (§3.5). */
export interface EliminationKeyInput {
  readonly merchantId: string;
  readonly orderType: string;
  /** Already upper-cased (see paymentDimensionsOf). */
  readonly paymentMethodType: string;
  readonly paymentMethod: string;
  readonly cardType: string | null;
}

/**
 * The elimination dimension of a payment: its elimination key without the gateway part,
 * `gw_score_<mid>_<orderType>_<PMT>_<PM>[_<cardType|UNKNOWN> for CARD]`.
 *
 * The gateway sits in the middle of the real key (`gw_score_<mid>_<orderType>_<gateway>_<PMT>_…`),
 * and every part may itself contain `_`, so the dimension alone cannot be split. Feedback rebuilds
 * a gateway's key with {@link eliminationKeyFromDimension}, which finds the insertion point from
 * the merchant id and order type that the stored decision context also carries.
 */
export function eliminationDimensionOf(input: EliminationKeyInput): string {
  return prefixOf(input.merchantId, input.orderType) + suffixOf(input);
}

/** The elimination key of one gateway, straight from the payment. */
export function eliminationKeyOf(input: EliminationKeyInput, gateway: string): string {
  return `${prefixOf(input.merchantId, input.orderType)}_${gateway}${suffixOf(input)}`;
}

/**
 * Rebuilds a gateway's elimination key from a stored dimension. Undefined when the dimension was
 * not built for this merchant and order type (a corrupt or foreign decision context).
 */
export function eliminationKeyFromDimension(eliminationDimension: string, merchantId: string, orderType: string, gateway: string): string | undefined {
  const prefix = prefixOf(merchantId, orderType);
  if (!eliminationDimension.startsWith(`${prefix}_`)) return undefined;
  return `${prefix}_${gateway}${eliminationDimension.slice(prefix.length)}`;
}

/** The start of every elimination key of a merchant, `gw_score_<mid>_`; the order type follows. */
export function merchantEliminationKeyPrefix(merchantId: string): string {
  return `${eliminationKeyPrefix}_${keyComponent(merchantId)}_`;
}

/** The length of a payment's elimination key prefix, `gw_score_<mid>_<orderType>`: where its gateway part goes. */
export function eliminationPrefixLength(merchantId: string, orderType: string): number {
  return eliminationKeyPrefix.length + keyComponent(merchantId).length + keyComponent(orderType).length + 2;
}

function prefixOf(merchantId: string, orderType: string): string {
  return `${eliminationKeyPrefix}_${keyComponent(merchantId)}_${keyComponent(orderType)}`;
}

function suffixOf(input: EliminationKeyInput): string {
  const base = `_${keyComponent(input.paymentMethodType)}_${keyComponent(input.paymentMethod)}`;
  return input.paymentMethodType === 'CARD' ? `${base}_${keyComponent(input.cardType)}` : base;
}
