import { describe, expect, it } from 'vitest';
import { classifyGsmError, isGatewayFault } from '../../../../src/feedback/gsm/classify-gsm-error.js';
import { buildGsmMap, defaultGsmMap, lookupDefaultMap } from '../../../../src/feedback/gsm/default-gsm-map.js';
import { gsmOptionRows } from '../../../../src/feedback/gsm/gsm-options.js';
import type { MerchantGsmRules } from '../../../../src/ports/state/gsm-rules.js';

const map = buildGsmMap([
  ['psp', 'Payment', 'Authorize', '2', 'Refused', 'retry', 'UE_3000', false, null],
  ['psp', 'Authorize', 'sub_flow', '2', 'Refused', 'retry', 'UE_1000', false, null],
  ['psp', 'Payment', 'Authorize', '51', 'Not enough balance', 'do_default', 'UE_1000', false, 'issue_with_payment_method'],
  ['psp', 'Payment', 'Authorize', '51', 'Insufficient funds', 'do_default', 'UE_1000', false, null],
  ['psp', 'Payment', 'Authorize', '7', 'Try again', 'retry', 'UE_3000', false, null],
  ['psp', 'Payment', 'Authorize', '7', 'Blocked', 'do_default', 'UE_1000', false, null],
  ['psp', 'Payment', 'Authorize', '3ds', 'Authentication required', 'do_default', 'UE_3000', true, null],
  ['psp', 'Payment', 'Authorize', 'Network:Visa|IssuerCode:05', 'Network:Visa|IssuerCode:05', 'do_default', 'UE_1000', false, null],
  ['psp', 'Payment', 'Authorize', 'x', 'no class', 'retry', null, false, null],
]);

describe('lookupDefaultMap', () => {
  it('finds the exact row when the flow is given, and the canonical Payment/Authorize row when it is not', () => {
    expect(lookupDefaultMap(map, { connector: 'psp', flow: 'Authorize', subFlow: 'sub_flow', errorCode: '2', errorMessage: 'Refused' })?.unifiedCode).toBe(
      'UE_1000',
    );
    expect(lookupDefaultMap(map, { connector: 'psp', errorCode: '2', errorMessage: 'Refused' })?.unifiedCode).toBe('UE_3000');
  });

  it('compares connectors case-insensitively and messages without surrounding spaces', () => {
    expect(lookupDefaultMap(map, { connector: 'PSP', errorCode: '51', errorMessage: ' Not enough balance ' })).toEqual({
      source: 'default_map',
      decision: 'do_default',
      unifiedCode: 'UE_1000',
      unifiedMessage: 'Issue with Payment Method details',
      stepUpPossible: false,
      errorCategory: 'issue_with_payment_method',
    });
  });

  it('finds a code alone only when every row of that code agrees on the class', () => {
    expect(lookupDefaultMap(map, { connector: 'psp', errorCode: '51' })?.unifiedCode).toBe('UE_1000');
    expect(lookupDefaultMap(map, { connector: 'psp', errorCode: '7' })).toBeUndefined();
    // A message the map does not know is not guessed from its code.
    expect(lookupDefaultMap(map, { connector: 'psp', errorCode: '51', errorMessage: 'Something else' })).toBeUndefined();
  });

  it('tries the issuer code first, padded to two digits and whatever the network spelling', () => {
    const match = lookupDefaultMap(map, { connector: 'psp', cardNetwork: 'VISA', issuerErrorCode: '5', errorCode: '7', errorMessage: 'Try again' });
    expect(match?.unifiedCode).toBe('UE_1000');
    // An unknown issuer code falls back to the PSP's code and message.
    expect(
      lookupDefaultMap(map, { connector: 'psp', cardNetwork: 'Visa', issuerErrorCode: '99', errorCode: '7', errorMessage: 'Try again' })?.unifiedCode,
    ).toBe('UE_3000');
  });

  it('leaves an unknown connector or code unmapped', () => {
    expect(lookupDefaultMap(map, { connector: 'other', errorCode: '2', errorMessage: 'Refused' })).toBeUndefined();
    expect(lookupDefaultMap(map, { connector: 'psp', errorCode: 'nope' })).toBeUndefined();
  });
});

describe('the shipped map', () => {
  it('classifies well-known PSP errors as decision-engine 1.4.33 does', () => {
    const shipped = defaultGsmMap();
    expect(lookupDefaultMap(shipped, { connector: 'adyen', flow: 'Payment', subFlow: 'Authorize', errorCode: '2', errorMessage: 'Refused' })).toMatchObject({
      decision: 'retry',
      unifiedCode: 'UE_3000',
    });
    expect(lookupDefaultMap(shipped, { connector: 'stripe', errorCode: 'insufficient_funds' })?.unifiedCode).toBe('UE_1000');
    expect(lookupDefaultMap(shipped, { connector: 'stripe', errorCode: 'processing_error' })?.unifiedCode).toBe('UE_3000');
    expect(lookupDefaultMap(shipped, { connector: 'adyen', cardNetwork: 'Visa', issuerErrorCode: '51' })?.unifiedCode).toBe('UE_1000');
  });

  it('lists every row for /gsm/options, leaving out the class where a row has none', () => {
    const rows = gsmOptionRows(map);
    expect(rows).toHaveLength(9);
    expect(rows[2]).toEqual({
      connector: 'psp',
      flow: 'Payment',
      subFlow: 'Authorize',
      errorCode: '51',
      errorMessage: 'Not enough balance',
      errorCategory: 'issue_with_payment_method',
      unifiedCode: 'UE_1000',
      unifiedMessage: 'Issue with Payment Method details',
      decision: 'do_default',
    });
    expect(rows[8]).toEqual({ connector: 'psp', flow: 'Payment', subFlow: 'Authorize', errorCode: 'x', errorMessage: 'no class', decision: 'retry' });
    expect(gsmOptionRows(defaultGsmMap()).length).toBeGreaterThan(2000);
  });
});

describe('classifyGsmError', () => {
  const rules: MerchantGsmRules = {
    rules: [
      { connector: 'PSP', errorCode: '2', unifiedCode: 'UE_4000' },
      { errorMessage: 'Refused', unifiedCode: 'UE_1000' },
      { issuerErrorCode: '5', cardNetwork: 'mastercard', unifiedCode: 'UE_2000' },
    ],
  };

  it('tries the merchant rules in order before the shipped map', () => {
    expect(classifyGsmError({ connector: 'psp', errorCode: '2', errorMessage: 'Refused' }, rules, map)).toMatchObject({
      source: 'merchant_rule',
      unifiedCode: 'UE_4000',
      unifiedMessage: 'Issue with Integration',
    });
    expect(classifyGsmError({ connector: 'other', errorCode: '2', errorMessage: 'Refused' }, rules, map)?.unifiedCode).toBe('UE_1000');
    expect(classifyGsmError({ connector: 'psp', issuerErrorCode: '05', cardNetwork: 'Mastercard' }, rules, map)?.unifiedCode).toBe('UE_2000');
    expect(classifyGsmError({ connector: 'psp', issuerErrorCode: '05', cardNetwork: 'Visa' }, rules, map)).toMatchObject({
      source: 'default_map',
      unifiedCode: 'UE_1000',
    });
  });

  it('never lets a rule without a code, message or issuer code match', () => {
    expect(classifyGsmError({ connector: 'psp', errorCode: 'nope' }, { rules: [{ connector: 'psp', unifiedCode: 'UE_1000' }] }, map)).toBeUndefined();
  });
});

describe('isGatewayFault', () => {
  const matchOf = (unifiedCode: string | null, stepUpPossible = false) =>
    ({ source: 'default_map', decision: 'do_default', unifiedCode, unifiedMessage: null, stepUpPossible, errorCategory: null }) as const;

  it('blames only PSP-side and unplaceable classes by default, and never a step-up', () => {
    for (const code of ['UE_1000', 'UE_2000', 'UE_4000']) expect(isGatewayFault(matchOf(code), undefined)).toBe(false);
    expect(isGatewayFault(matchOf('UE_3000', true), undefined)).toBe(false);
    for (const code of ['UE_3000', 'UE_9000', null]) expect(isGatewayFault(matchOf(code), undefined)).toBe(true);
  });

  it('blames an unmapped error (decision-engine default)', () => {
    expect(isGatewayFault(undefined, undefined)).toBe(true);
  });

  it('follows the classes a merchant excuses', () => {
    const settings: MerchantGsmRules = { rules: [], excusedClasses: ['UE_1000', 'UE_4000'] };
    expect(isGatewayFault(matchOf('UE_4000'), settings)).toBe(false);
    expect(isGatewayFault(matchOf('UE_3000'), settings)).toBe(true);
    expect(isGatewayFault(matchOf('UE_1000'), { rules: [], excusedClasses: [] })).toBe(true);
  });
});
