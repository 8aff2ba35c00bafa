import type { PaymentDimensions, SrDimensionConfig } from '../generated/schema-types.js';
import { keyComponent } from './key-component.js';

const windowKeyPrefix = 'gw_sr_v3_score';

/** Payment fields that SR_DIMENSION_CONFIG may append, mapped to where their value lives. */
const dimensionFieldReaders: ReadonlyMap<string, (payment: PaymentDimensions) => string | null> = new Map([
  ['card_network', (payment: PaymentDimensions) => payment.cardNetwork],
  ['card_is_in', (payment: PaymentDimensions) => payment.cardIsIn],
  ['currency', (payment: PaymentDimensions) => payment.currency],
  ['country', (payment: PaymentDimensions) => payment.country],
  ['auth_type', (payment: PaymentDimensions) => payment.authType],
]);

/**
 * The SR v3 window dimension of a payment (§3.3): the window key of every gateway without the
 * gateway suffix, `gw_sr_v3_score_<mid>_<orderType>_<PMT>_<PM>[_<field>…][_<udf>…]`.
 *
 * - `fields` are appended in their configured order; a field whose value is absent is skipped
 *   (decision-engine pushes only present values); unknown names are ignored. A stored name may
 *   carry upstream's `paymentInfo.` prefix.
 * - `udfs` are 0-based indexes into `paymentInfo.udfs` (the schema bounds them by the 64-item
 *   udfs array). If ANY configured udf is missing, no udf is appended at all, so a payment never
 *   lands in a half-qualified window.
 * - Empty components become `UNKNOWN`.
 *
 * Adapters own the storage spelling (`{<key>_}queue` in Redis, the hash tag keeping one
 * dimension's keys in one cluster slot); the domain only builds the key text.
 */
export function windowDimensionOf(
  merchantId: string,
  payment: PaymentDimensions,
  udfs: readonly (string | null)[] | null | undefined,
  srDimension: SrDimensionConfig | undefined,
): string {
  let key =
    `${windowKeyPrefix}_${keyComponent(merchantId)}_${keyComponent(payment.orderType)}` +
    `_${keyComponent(payment.paymentMethodType)}_${keyComponent(payment.paymentMethod)}`;
  if (srDimension === undefined) return key;
  for (const configured of srDimension.fields ?? []) {
    const name = configured.startsWith('paymentInfo.') ? configured.slice('paymentInfo.'.length) : configured;
    const read = dimensionFieldReaders.get(name);
    if (read === undefined) continue;
    const value = read(payment);
    if (value !== null) key += `_${keyComponent(value)}`;
  }
  const udfSuffix = udfSuffixOf(udfs, srDimension.udfs);
  return udfSuffix === undefined ? key : key + udfSuffix;
}

function udfSuffixOf(udfs: readonly (string | null)[] | null | undefined, indexes: readonly number[]): string | undefined {
  if (indexes.length === 0) return undefined;
  let suffix = '';
  for (const index of indexes) {
    const value = udfs?.[index];
    if (value === null || value === undefined) return undefined;
    suffix += `_${keyComponent(value)}`;
  }
  return suffix;
}

/**
 * The start of every window key of a merchant, `gw_sr_v3_score_<mid>_`; the order type follows.
 * Merchant ids may hold `_`, so keys of merchant `<mid>_x` start with it too (see the reset).
 */
export function merchantWindowKeyPrefix(merchantId: string): string {
  return `${windowKeyPrefix}_${keyComponent(merchantId)}_`;
}

/** The window key of one gateway: its dimension plus `_<gateway>`. */
export function windowKeyFor(windowDimension: string, gateway: string): string {
  return `${windowDimension}_${gateway}`;
}
