import type { PaymentInfo } from '../generated/schema-types.js';
import { routingKeyTable, type EvaluationParameters, type ValueType } from './index.js';

/** decision-engine auth types → the rule builder's `authentication_type` values. */
const authenticationTypes: Readonly<Record<string, string>> = {
  THREE_DS: 'three_ds',
  THREE_DS_2: 'three_ds',
  NO_THREE_DS: 'no_three_ds',
};

const enumValue = (key: string, value: string | null | undefined): ValueType | undefined => {
  if (value === null || value === undefined || value === '') return undefined;
  const normalised = key === 'currency' || key.endsWith('_country') ? value.toUpperCase() : value.toLowerCase().replaceAll(' ', '_');
  return routingKeyTable.allowsEnumValue(key, normalised) ? { type: 'enum_variant', value: normalised } : undefined;
};

/** At most this many metadata entries become parameters: the metadata string is client input. */
const maxMetadataEntries = 64;

/**
 * `paymentInfo.metadata` (a JSON object serialised into a string) as metadata_variant parameters,
 * each under its own key, so `{"lhs":"metadata","value":{"type":"metadata_variant","value":{"key":
 * "tier","value":"gold"}}}` matches a payment whose metadata says `"tier":"gold"`. Only scalar entries
 * (numbers and booleans as their JSON text); never under a routing-key name, so metadata cannot
 * stand in for a payment field. Metadata that is not a JSON object gives nothing.
 */
function putMetadata(metadata: string | null | undefined, put: (key: string, value: ValueType) => void): void {
  if (metadata === null || metadata === undefined || !metadata.trimStart().startsWith('{')) return;
  let decoded: unknown;
  try {
    decoded = JSON.parse(metadata);
  } catch {
    return;
  }
  if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) return;
  let taken = 0;
  for (const [key, value] of Object.entries(decoded)) {
    if (taken === maxMetadataEntries) return;
    if (routingKeyTable.definition(key) !== undefined) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    put(key, { type: 'metadata_variant', value: { key, value: String(value) } });
    taken += 1;
  }
}

/**
 * The rule parameters a `/decide-gateway` payment provides, in the rule builder's vocabulary:
 * payment_method (from paymentMethodType), payment_method_type (from paymentMethod), amount (integer
 * part), currency, card_network (cardSwitchProvider), card_type, card_bin (first 6 digits of the
 * ISIN), authentication_type, billing_country, issuer_country and the scalar entries of the
 * metadata JSON. A value the key does not allow is left out (its conditions are then false), never
 * an error: the decision must not fail on a rule.
 */
export function decisionRuleParameters(payment: PaymentInfo): EvaluationParameters {
  const parameters = Object.create(null) as Record<string, ValueType>;
  const put = (key: string, value: ValueType | undefined) => {
    if (value !== undefined) parameters[key] = value;
  };
  put('payment_method', enumValue('payment_method', payment.paymentMethodType));
  put('payment_method_type', enumValue('payment_method_type', payment.paymentMethod));
  if (Number.isFinite(payment.amount) && payment.amount >= 0) put('amount', { type: 'number', value: Math.floor(payment.amount) });
  put('currency', enumValue('currency', payment.currency));
  put('card_network', enumValue('card_network', payment.cardSwitchProvider));
  put('card_type', enumValue('card_type', payment.cardType));
  put('authentication_type', enumValue('authentication_type', payment.authType ? authenticationTypes[payment.authType] : undefined));
  put('billing_country', enumValue('billing_country', payment.country));
  put('issuer_country', enumValue('issuer_country', payment.cardIssuerCountry));
  const isin = payment.cardIsin ?? '';
  if (/^[0-9]{6}/.test(isin)) put('card_bin', { type: 'str_value', value: isin.slice(0, 6) });
  putMetadata(payment.metadata, put);
  return parameters;
}
