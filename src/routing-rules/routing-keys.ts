import { isoCountryCodes, isoCurrencyCodes } from './iso-codes.js';

/**
 * The rule-builder keys: what a routing rule may test and what `/routing/evaluate` parameters may
 * carry. ONE table feeds validation (parse-routing-algorithm.ts), evaluation (the parameter checks)
 * and `GET /config/routing-keys`, so the three can never disagree (a unit test walks every key
 * through an evaluation).
 *
 * Keys are decision-engine's development-config list (`[routing_config.keys]`). Choices of ours:
 * - Country keys (billing_country, business_country, issuer_country) use ISO 3166-1 alpha-2 codes;
 *   the reference's dev config spells two of them as long names ("UnitedStatesOfAmerica").
 * - Payment-method sub-type keys (wallet, pay_later, …) use the snake_case spelling of
 *   `payment_method_type`, so a sub-type value reads the same under both keys.
 * - `card_bin` and `extended_card_bin` carry their length and pattern limits; `issuer_name` needs at
 *   least one character. No integer key has a configured min/max (the reference's `min = 0` is not a
 *   recognised field), but the table and the validator support them.
 */
export type RoutingKeyDefinition =
  | { readonly type: 'integer'; readonly minValue: number | null; readonly maxValue: number | null }
  | { readonly type: 'enum'; readonly values: readonly string[] }
  | { readonly type: 'udf' }
  | {
      readonly type: 'str_value';
      readonly minLength: number | null;
      readonly maxLength: number | null;
      readonly exactLength: number | null;
      readonly regex: string | null;
    }
  | { readonly type: 'global_ref' };

export type RoutingKeyType = RoutingKeyDefinition['type'];

const integer = (): RoutingKeyDefinition => ({ type: 'integer', minValue: null, maxValue: null });
const udf = (): RoutingKeyDefinition => ({ type: 'udf' });
const enumOf = (list: string): RoutingKeyDefinition => ({
  type: 'enum',
  values: Object.freeze(list.split(',').map((value) => value.trim())),
});
const str = (limits: { minLength?: number; maxLength?: number; exactLength?: number; regex?: string }): RoutingKeyDefinition => ({
  type: 'str_value',
  minLength: limits.minLength ?? null,
  maxLength: limits.maxLength ?? null,
  exactLength: limits.exactLength ?? null,
  regex: limits.regex ?? null,
});

const countries = (): RoutingKeyDefinition => ({ type: 'enum', values: isoCountryCodes });

const table = {
  amount: integer(),
  authentication_type: enumOf('three_ds, no_three_ds'),
  bank_debit: enumOf('ach, sepa, bacs, becs'),
  bank_redirect: enumOf(
    'giropay, ideal, sofort, eft, eps, bancontact_card, blik, local_bank_redirect, online_banking_thailand, ' +
      'online_banking_czech_republic, online_banking_finland, online_banking_fpx, online_banking_poland, ' +
      'online_banking_slovakia, przelewy24, trustly, bizum, interac, open_banking_uk',
  ),
  bank_transfer: enumOf(
    'ach, sepa_bank_transfer, bacs, multibanco, pix, pse, permata_bank_transfer, bca_bank_transfer, bni_va, bri_va, ' +
      'cimb_va, danamon_va, mandiri_va, local_bank_transfer, instant_bank_transfer',
  ),
  billing_country: countries(),
  business_country: countries(),
  business_label: udf(),
  capture_method: enumOf('automatic, manual, manual_multiple, scheduled, sequential_automatic'),
  card: enumOf('credit, debit'),
  card_bin: str({ exactLength: 6, regex: '^[0-9]{6}$' }),
  card_discovery: enumOf('manual, saved_card, click_to_pay'),
  card_network: enumOf(
    'visa, mastercard, american_express, jcb, diners_club, discover, cartes_bancaires, union_pay, interac, rupay, ' + 'maestro, star, pulse, accel, nyce',
  ),
  card_redirect: enumOf('knet, benefit, momo_atm, card_redirect'),
  card_type: enumOf('credit, debit'),
  crypto: enumOf('crypto_currency'),
  currency: { type: 'enum', values: isoCurrencyCodes } as RoutingKeyDefinition,
  customer_device_display_size: enumOf(
    'size320x568, size375x667, size390x844, size414x896, size428x926, size768x1024, size834x1112, size834x1194, ' +
      'size1024x1366, size1280x720, size1366x768, size1440x900, size1920x1080, size2560x1440, size3840x2160, ' +
      'size500x600, size600x400, size360x640, size412x915, size800x1280',
  ),
  customer_device_platform: enumOf('web, android, ios'),
  customer_device_type: enumOf('mobile, tablet, desktop, gaming_console'),
  extended_card_bin: str({ exactLength: 8, regex: '^[0-9]{8}$' }),
  gift_card: enumOf('givex, pay_safe_card'),
  issuer_country: countries(),
  issuer_name: str({ minLength: 1 }),
  mandate_acceptance_type: enumOf('online, offline'),
  mandate_type: enumOf('single_use, multi_use'),
  metadata: udf(),
  mobile_payment: enumOf('direct_carrier_billing'),
  network_token: enumOf('network_token'),
  open_banking: enumOf('open_banking_pis'),
  pay_later: enumOf('affirm, afterpay_clearpay, alma, klarna, pay_bright, atome, walley'),
  payment_amount: integer(),
  payment_method: enumOf(
    'card, card_redirect, pay_later, wallet, bank_redirect, bank_transfer, crypto, bank_debit, reward, ' +
      'real_time_payment, upi, voucher, gift_card, open_banking, mobile_payment',
  ),
  payment_method_type: enumOf(
    'ach, affirm, afterpay_clearpay, alfamart, ali_pay, ali_pay_hk, alma, amazon_pay, apple_pay, atome, bacs, ' +
      'bancontact_card, becs, benefit, bizum, blik, boleto, bca_bank_transfer, bni_va, bri_va, card, card_redirect, ' +
      'cimb_va, classic_reward, credit, crypto_currency, cashapp, dana, danamon_va, debit, duit_now, efecty, eft, eps, ' +
      'fps, evoucher, giropay, givex, google_pay, go_pay, gcash, ideal, interac, indomaret, klarna, kakao_pay, ' +
      'local_bank_redirect, mandiri_va, knet, mb_way, mobile_pay, momo, momo_atm, multibanco, online_banking_thailand, ' +
      'online_banking_czech_republic, online_banking_finland, online_banking_fpx, online_banking_poland, ' +
      'online_banking_slovakia, oxxo, pago_efectivo, permata_bank_transfer, open_banking_uk, pay_bright, paypal, paze, ' +
      'pix, pay_safe_card, przelewy24, prompt_pay, pse, red_compra, red_pagos, samsung_pay, sepa, sepa_bank_transfer, ' +
      'sofort, swish, touch_n_go, trustly, twint, upi_collect, upi_intent, vipps, viet_qr, venmo, walley, we_chat_pay, ' +
      'seven_eleven, lawson, mini_stop, family_mart, seicomart, pay_easy, local_bank_transfer, mifinity, ' +
      'open_banking_pis, direct_carrier_billing, instant_bank_transfer',
  ),
  payment_type: enumOf('normal, new_mandate, setup_mandate, recurring_mandate, non_mandate, update_mandate, ppt_mandate'),
  real_time_payment: enumOf('fps, duit_now, prompt_pay, viet_qr'),
  reward: enumOf('evoucher, classic_reward'),
  setup_future_usage: enumOf('on_session, off_session'),
  surcharge_amount: integer(),
  transaction_initiator: enumOf('customer, merchant'),
  upi: enumOf('upi_collect, upi_intent'),
  voucher: enumOf(
    'boleto, efecty, pago_efectivo, red_compra, red_pagos, indomaret, alfamart, oxxo, seven_eleven, lawson, ' + 'mini_stop, family_mart, seicomart, pay_easy',
  ),
  wallet: enumOf(
    'amazon_pay, apple_pay, google_pay, paypal, ali_pay, ali_pay_hk, dana, mb_way, mobile_pay, samsung_pay, twint, ' +
      'vipps, touch_n_go, swish, we_chat_pay, go_pay, gcash, momo, kakao_pay, cashapp, mifinity, paze, venmo',
  ),
} satisfies Record<string, RoutingKeyDefinition>;

export type RoutingKeyName = keyof typeof table;

/** Every rule-builder key and its definition (frozen). Look keys up with `routingKeyDefinition`. */
export const routingKeyDefinitions: Readonly<Record<RoutingKeyName, RoutingKeyDefinition>> = Object.freeze(table);

/**
 * A key table as the validators use it. The default is built from `routingKeyDefinitions`; tests
 * (and a future per-deployment key config) build their own with `createRoutingKeyTable`.
 */
export interface RoutingKeyTable {
  /** The definition of `name`, or undefined for a key the rule builder does not know. */
  definition(name: string): RoutingKeyDefinition | undefined;
  /** Whether `value` is one of the enum key `name`'s values (false for non-enum or unknown keys). */
  allowsEnumValue(name: string, value: string): boolean;
  /** Key names in alphabetical order. */
  names(): readonly string[];
}

export function createRoutingKeyTable(definitions: Readonly<Record<string, RoutingKeyDefinition>>): RoutingKeyTable {
  // A Map, not the object: a rule's `lhs` is user input, and `"constructor"` or `"__proto__"` must be
  // an unknown key rather than something found on Object.prototype.
  const byName: ReadonlyMap<string, RoutingKeyDefinition> = new Map(Object.entries(definitions));
  // Enum values as Sets, built once, for O(1) membership checks.
  const enumSets: ReadonlyMap<string, ReadonlySet<string>> = new Map(
    [...byName].flatMap(([name, definition]) => (definition.type === 'enum' ? [[name, new Set(definition.values)] as const] : [])),
  );
  const names = Object.freeze([...byName.keys()].sort());
  return {
    definition: (name) => byName.get(name),
    allowsEnumValue: (name, value) => enumSets.get(name)?.has(value) ?? false,
    names: () => names,
  };
}

/** The table built from `routingKeyDefinitions`, used by default everywhere. */
export const routingKeyTable: RoutingKeyTable = createRoutingKeyTable(routingKeyDefinitions);

/** The definition of `name` in the default table, or undefined for an unknown key. */
export function routingKeyDefinition(name: string): RoutingKeyDefinition | undefined {
  return routingKeyTable.definition(name);
}

/** Whether `value` is one of the default table's values for the enum key `name`. */
export function isAllowedEnumValue(name: string, value: string): boolean {
  return routingKeyTable.allowsEnumValue(name, value);
}

/** One key as `GET /config/routing-keys` shows it. */
export interface RoutingKeyView {
  readonly type: RoutingKeyType;
  /** Enum values joined with ", " (a string, not an array, as on the reference wire). */
  readonly values: string | null;
  readonly min_value: number | null;
  readonly max_value: number | null;
  readonly min_length: number | null;
  readonly max_length: number | null;
  readonly exact_length: number | null;
  readonly regex: string | null;
}

function viewOf(definition: RoutingKeyDefinition): RoutingKeyView {
  return {
    type: definition.type,
    values: definition.type === 'enum' ? definition.values.join(', ') : null,
    min_value: definition.type === 'integer' ? definition.minValue : null,
    max_value: definition.type === 'integer' ? definition.maxValue : null,
    min_length: definition.type === 'str_value' ? definition.minLength : null,
    max_length: definition.type === 'str_value' ? definition.maxLength : null,
    exact_length: definition.type === 'str_value' ? definition.exactLength : null,
    regex: definition.type === 'str_value' ? definition.regex : null,
  };
}

/**
 * The body of `GET /config/routing-keys`: `{"keys": {<name>: RoutingKeyView}}`, keys in alphabetical
 * order (decision-engine HEAD order; 1.4.x used hash-map order, which no client can rely on).
 */
export function routingKeysView(table: RoutingKeyTable = routingKeyTable): { readonly keys: Readonly<Record<string, RoutingKeyView>> } {
  const keys: Record<string, RoutingKeyView> = {};
  for (const name of table.names()) keys[name] = viewOf(table.definition(name) as RoutingKeyDefinition);
  return { keys };
}
