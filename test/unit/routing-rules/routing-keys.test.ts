import { describe, expect, it } from 'vitest';
import {
  createRoutingKeyTable,
  isAllowedEnumValue,
  routingKeyDefinition,
  routingKeyDefinitions,
  routingKeysView,
} from '../../../src/routing-rules/routing-keys.js';

/** decision-engine's development-config key list (reference §2.9). */
const referenceKeys = [
  'amount',
  'authentication_type',
  'bank_debit',
  'bank_redirect',
  'bank_transfer',
  'billing_country',
  'business_country',
  'business_label',
  'capture_method',
  'card',
  'card_bin',
  'card_discovery',
  'card_network',
  'card_redirect',
  'card_type',
  'crypto',
  'currency',
  'extended_card_bin',
  'gift_card',
  'issuer_country',
  'issuer_name',
  'mandate_acceptance_type',
  'mandate_type',
  'customer_device_display_size',
  'customer_device_platform',
  'customer_device_type',
  'metadata',
  'mobile_payment',
  'network_token',
  'open_banking',
  'pay_later',
  'payment_method',
  'payment_amount',
  'payment_method_type',
  'payment_type',
  'real_time_payment',
  'reward',
  'setup_future_usage',
  'surcharge_amount',
  'transaction_initiator',
  'upi',
  'voucher',
  'wallet',
];

describe('routingKeysView', () => {
  const view = routingKeysView();

  it('lists exactly the reference development keys, alphabetically', () => {
    expect(Object.keys(view.keys)).toEqual([...referenceKeys].sort());
  });

  it('shows an integer key with every limit null', () => {
    expect(view.keys['amount']).toEqual({
      type: 'integer',
      values: null,
      min_value: null,
      max_value: null,
      min_length: null,
      max_length: null,
      exact_length: null,
      regex: null,
    });
  });

  it('shows enum values as one comma-separated string', () => {
    expect(view.keys['payment_method']?.values).toBe(
      'card, card_redirect, pay_later, wallet, bank_redirect, bank_transfer, crypto, bank_debit, reward, real_time_payment, upi, voucher, gift_card, open_banking, mobile_payment',
    );
    expect(view.keys['authentication_type']?.values).toBe('three_ds, no_three_ds');
    expect(view.keys['card_network']?.values?.startsWith('visa, mastercard, american_express, jcb, diners_club, discover')).toBe(true);
  });

  it('shows the card BIN limits', () => {
    expect(view.keys['card_bin']).toMatchObject({ type: 'str_value', exact_length: 6, regex: '^[0-9]{6}$', values: null });
    expect(view.keys['extended_card_bin']).toMatchObject({ type: 'str_value', exact_length: 8, regex: '^[0-9]{8}$' });
    expect(view.keys['issuer_name']).toMatchObject({ type: 'str_value', min_length: 1, exact_length: null });
  });

  it('marks metadata keys as udf', () => {
    expect(view.keys['metadata']?.type).toBe('udf');
    expect(view.keys['business_label']?.type).toBe('udf');
  });

  it('uses ISO codes for currencies and countries', () => {
    const currencies = view.keys['currency']?.values?.split(', ') ?? [];
    expect(currencies).toContain('USD');
    expect(currencies).toContain('INR');
    expect(currencies.every((code) => /^[A-Z]{3}$/.test(code))).toBe(true);
    for (const key of ['billing_country', 'business_country', 'issuer_country']) {
      const countries = view.keys[key]?.values?.split(', ') ?? [];
      expect(countries).toHaveLength(249);
      expect(countries.every((code) => /^[A-Z]{2}$/.test(code))).toBe(true);
    }
  });

  it('serialises as JSON with every field present, nulls included', () => {
    const round = JSON.parse(JSON.stringify(view)) as { keys: Record<string, Record<string, unknown>> };
    for (const entry of Object.values(round.keys)) {
      expect(Object.keys(entry).sort()).toEqual(['exact_length', 'max_length', 'max_value', 'min_length', 'min_value', 'regex', 'type', 'values']);
    }
  });
});

describe('routingKeyDefinition', () => {
  it('finds known keys and no prototype names', () => {
    expect(routingKeyDefinition('amount')?.type).toBe('integer');
    expect(routingKeyDefinition('constructor')).toBeUndefined();
    expect(routingKeyDefinition('__proto__')).toBeUndefined();
    expect(routingKeyDefinition('toString')).toBeUndefined();
  });

  it('keeps enum value lists free of duplicates and blanks', () => {
    for (const definition of Object.values(routingKeyDefinitions)) {
      if (definition.type !== 'enum') continue;
      expect(new Set(definition.values).size).toBe(definition.values.length);
      expect(definition.values.every((value) => value.length > 0 && value.trim() === value)).toBe(true);
    }
  });

  it('checks enum membership per key', () => {
    expect(isAllowedEnumValue('payment_method', 'card')).toBe(true);
    expect(isAllowedEnumValue('payment_method', 'Card')).toBe(false);
    expect(isAllowedEnumValue('amount', 'card')).toBe(false);
    expect(isAllowedEnumValue('nope', 'card')).toBe(false);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(routingKeyDefinitions)).toBe(true);
  });
});

describe('routingKeysView of a custom table', () => {
  it('shows configured integer limits', () => {
    const table = createRoutingKeyTable({ amount: { type: 'integer', minValue: 0, maxValue: 100 } });
    expect(routingKeysView(table)).toEqual({
      keys: { amount: { type: 'integer', values: null, min_value: 0, max_value: 100, min_length: null, max_length: null, exact_length: null, regex: null } },
    });
  });
});
