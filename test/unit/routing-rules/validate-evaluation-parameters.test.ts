import { describe, expect, it } from 'vitest';
import { createRoutingKeyTable } from '../../../src/routing-rules/routing-keys.js';
import { validateEvaluationParameters } from '../../../src/routing-rules/validate-evaluation-parameters.js';

describe('validateEvaluationParameters', () => {
  it('accepts the reference example, nulls included, and copies into a null-prototype object', () => {
    const result = validateEvaluationParameters({
      payment_method: { type: 'enum_variant', value: 'card' },
      amount: { type: 'number', value: 150 },
      card_network: { type: 'enum_variant', value: 'visa' },
      currency: null,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect({ ...result.parameters }).toEqual({
      payment_method: { type: 'enum_variant', value: 'card' },
      amount: { type: 'number', value: 150 },
      card_network: { type: 'enum_variant', value: 'visa' },
      currency: null,
    });
    expect(Object.getPrototypeOf(result.parameters)).toBeNull();
  });

  it('refuses an unknown key unless its value is metadata', () => {
    expect(validateEvaluationParameters({ shoe_size: { type: 'number', value: 42 } })).toEqual({
      ok: false,
      kind: 'invalid_parameter',
      message: 'Invalid parameter: shoe_size',
      wireMessage: 'Invalid parameter: shoe_size',
    });
    expect(validateEvaluationParameters({ some_key: null })).toMatchObject({ ok: false, message: 'Invalid parameter: some_key' });
    expect(validateEvaluationParameters({ tier: { type: 'metadata_variant', value: { key: 'tier', value: 'gold' } } }).ok).toBe(true);
  });

  it('refuses a non-enum value for an enum key', () => {
    expect(validateEvaluationParameters({ payment_method: { type: 'str_value', value: 'card' } })).toEqual({
      ok: false,
      kind: 'expected_enum',
      message: "Expected enum value for key 'payment_method'",
      wireMessage: "Invalid request received : Expected enum value for key 'payment_method'",
    });
  });

  it('refuses an enum value the key does not allow', () => {
    expect(validateEvaluationParameters({ currency: { type: 'enum_variant', value: 'usd' } })).toEqual({
      ok: false,
      kind: 'invalid_enum_value',
      message: "Invalid enum value 'usd' for key 'currency'",
      wireMessage: "Invalid request received : Invalid enum value 'usd' for key 'currency'",
    });
  });

  it('leaves type checks of non-enum keys to the evaluator, as the reference does', () => {
    expect(validateEvaluationParameters({ amount: { type: 'str_value', value: '10' } }).ok).toBe(true);
    expect(validateEvaluationParameters({ card_bin: { type: 'number', value: 424242 } }).ok).toBe(true);
  });

  it('reports the first problem in key order', () => {
    const result = validateEvaluationParameters({
      payment_method: { type: 'enum_variant', value: 'cash' },
      nope: { type: 'number', value: 1 },
    });
    expect(result).toMatchObject({ ok: false, kind: 'invalid_enum_value' });
  });

  it('refuses values that are not typed values, and a non-object', () => {
    expect(validateEvaluationParameters({ amount: 150 })).toMatchObject({ ok: false, kind: 'shape' });
    expect(validateEvaluationParameters({ amount: { type: 'number', value: -1 } })).toMatchObject({ ok: false, kind: 'shape' });
    expect(validateEvaluationParameters({ amount: { type: 'decimal', value: 1 } })).toMatchObject({ ok: false, kind: 'shape' });
    expect(validateEvaluationParameters([])).toMatchObject({ ok: false, kind: 'shape' });
    expect(validateEvaluationParameters(null)).toMatchObject({ ok: false, kind: 'shape' });
  });

  it('accepts an empty parameter map', () => {
    expect(validateEvaluationParameters({}).ok).toBe(true);
  });
});

describe('validateEvaluationParameters with a custom key table', () => {
  it('checks against the given table', () => {
    const keys = createRoutingKeyTable({ txn_is_emi: { type: 'enum', values: ['true', 'false'] } });
    expect(validateEvaluationParameters({ txn_is_emi: { type: 'enum_variant', value: 'true' } }, keys).ok).toBe(true);
    expect(validateEvaluationParameters({ txn_is_emi: { type: 'enum_variant', value: 'yes' } }, keys)).toMatchObject({ kind: 'invalid_enum_value' });
    expect(validateEvaluationParameters({ amount: { type: 'number', value: 1 } }, keys)).toMatchObject({ message: 'Invalid parameter: amount' });
  });
});
