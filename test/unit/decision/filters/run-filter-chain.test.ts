import { describe, expect, it } from 'vitest';
import { legacyFilterChain, runFilterChain } from '../../../../src/decision/filters/run-filter-chain.js';
import type { LegacyTxn } from '../../../../src/decision/filters/legacy-txn.js';

const txn: LegacyTxn = {
  currency: 'USD',
  paymentMethodType: 'CARD',
  paymentMethod: 'CREDIT',
  cardBrand: 'VISA',
  authType: 'THREE_DS',
  isEmi: false,
  emiBank: null,
  emiTenure: null,
  txnObjectType: 'ORDER_PAYMENT',
};

describe('runFilterChain', () => {
  it('runs the filters in decision-engine order', () => {
    expect(legacyFilterChain.map((filter) => filter.name)).toEqual([
      'filterFunctionalGatewaysForCurrency',
      'filterFunctionalGateways',
      'filterFunctionalGatewaysForBrand',
      'filterFunctionalGatewaysForAuthType',
      'filterFunctionalGatewaysForEmi',
      'filterFunctionalGatewaysForPaymentMethod',
      'filterFunctionalGatewaysForWallet',
      'filterFunctionalGatewaysForUpi',
      'filterFunctionalGatewaysForTxnType',
    ]);
  });

  it('records the survivors after each step and what each step removed', () => {
    const result = runFilterChain(
      [{ gateway: 'a', currencies: ['EUR'] }, { gateway: 'b' }, { gateway: 'c', card_brands: ['AMEX'] }, { gateway: 'd', enabled: false }],
      ['d', 'b', 'a', 'c', 'zz'],
      txn,
    );
    expect(result.gateways).toEqual(['b']);
    expect(result.steps.slice(0, 4)).toEqual([
      ['getFunctionalGateways', ['d', 'b', 'a', 'c']],
      ['filterFunctionalGatewaysForCurrency', ['d', 'b', 'c']],
      ['filterFunctionalGateways', ['b', 'c']],
      ['filterFunctionalGatewaysForBrand', ['b']],
    ]);
    expect(result.steps).toHaveLength(10);
    expect(result.removed).toMatchObject({
      getFunctionalGateways: ['zz'],
      filterFunctionalGatewaysForCurrency: ['a'],
      filterFunctionalGateways: ['d'],
      filterFunctionalGatewaysForBrand: ['c'],
      filterFunctionalGatewaysForTxnType: [],
    });
  });

  it('runs every step even once nothing is left', () => {
    const result = runFilterChain([{ gateway: 'a', currencies: ['EUR'] }], null, txn);
    expect(result.gateways).toEqual([]);
    expect(result.steps.map(([, gateways]) => gateways)).toEqual([['a'], [], [], [], [], [], [], [], [], []]);
  });
});
