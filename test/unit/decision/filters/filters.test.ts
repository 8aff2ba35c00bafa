import { describe, expect, it } from 'vitest';
import type { GatewayCapability } from '../../../../src/generated/schema-types.js';
import { filterByAuthType } from '../../../../src/decision/filters/filter-by-auth-type.js';
import { filterByBrand } from '../../../../src/decision/filters/filter-by-brand.js';
import { filterByCurrency } from '../../../../src/decision/filters/filter-by-currency.js';
import { filterByPaymentMethod } from '../../../../src/decision/filters/filter-by-payment-method.js';
import { filterByTxnType } from '../../../../src/decision/filters/filter-by-txn-type.js';
import { filterByUpi } from '../../../../src/decision/filters/filter-by-upi.js';
import { filterByWallet } from '../../../../src/decision/filters/filter-by-wallet.js';
import { filterForEmi } from '../../../../src/decision/filters/filter-for-emi.js';
import { filterFunctionalGateways } from '../../../../src/decision/filters/filter-functional-gateways.js';
import { getFunctionalGateways } from '../../../../src/decision/filters/get-functional-gateways.js';
import type { LegacyTxn } from '../../../../src/decision/filters/legacy-txn.js';

const card: LegacyTxn = {
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
const wallet: LegacyTxn = { ...card, paymentMethodType: 'WALLET', paymentMethod: 'PAYTM', cardBrand: null, authType: null };
const upi: LegacyTxn = { ...wallet, paymentMethodType: 'UPI', paymentMethod: 'UPI_COLLECT' };
const gw = (extra: Partial<GatewayCapability> = {}): GatewayCapability => ({ gateway: 'g', ...extra });

describe('filterByCurrency', () => {
  it('keeps a gateway that lists the currency or lists none', () => {
    expect(filterByCurrency.name).toBe('filterFunctionalGatewaysForCurrency');
    expect(filterByCurrency.accepts(gw(), card)).toBe(true);
    expect(filterByCurrency.accepts(gw({ currencies: null }), card)).toBe(true);
    expect(filterByCurrency.accepts(gw({ currencies: ['EUR', 'USD'] }), card)).toBe(true);
    expect(filterByCurrency.accepts(gw({ currencies: ['EUR'] }), card)).toBe(false);
    expect(filterByCurrency.accepts(gw({ currencies: [] }), card)).toBe(false);
  });
});

describe('filterFunctionalGateways', () => {
  it('drops only gateways switched off', () => {
    expect(filterFunctionalGateways.accepts(gw(), card)).toBe(true);
    expect(filterFunctionalGateways.accepts(gw({ enabled: true }), card)).toBe(true);
    expect(filterFunctionalGateways.accepts(gw({ enabled: false }), card)).toBe(false);
  });
});

describe('filterByBrand', () => {
  it('checks the card brand of card payments, ignoring case', () => {
    expect(filterByBrand.accepts(gw({ card_brands: ['visa'] }), card)).toBe(true);
    expect(filterByBrand.accepts(gw({ card_brands: ['MASTERCARD'] }), card)).toBe(false);
    expect(filterByBrand.accepts(gw(), card)).toBe(true);
  });

  it('passes payments without a brand and non-card payments', () => {
    expect(filterByBrand.accepts(gw({ card_brands: ['MASTERCARD'] }), { ...card, cardBrand: null })).toBe(true);
    expect(filterByBrand.accepts(gw({ card_brands: ['MASTERCARD'] }), wallet)).toBe(true);
  });
});

describe('filterByAuthType', () => {
  it('checks the auth type when the payment has one', () => {
    expect(filterByAuthType.accepts(gw({ auth_types: ['THREE_DS', 'OTP'] }), card)).toBe(true);
    expect(filterByAuthType.accepts(gw({ auth_types: ['NO_THREE_DS'] }), card)).toBe(false);
    expect(filterByAuthType.accepts(gw({ auth_types: ['NO_THREE_DS'] }), { ...card, authType: null })).toBe(true);
    expect(filterByAuthType.accepts(gw(), card)).toBe(true);
  });
});

describe('filterForEmi', () => {
  const emi: LegacyTxn = { ...card, isEmi: true, emiBank: 'HDFC', emiTenure: 6 };

  it('passes every gateway for a payment that is not EMI', () => {
    expect(filterForEmi.name).toBe('filterFunctionalGatewaysForEmi');
    expect(filterForEmi.accepts(gw(), card)).toBe(true);
    expect(filterForEmi.accepts(gw({ emi: { supported: false } }), card)).toBe(true);
  });

  it('keeps for an EMI payment only gateways supporting EMI for its bank and tenure', () => {
    expect(filterForEmi.accepts(gw(), emi)).toBe(false);
    expect(filterForEmi.accepts(gw({ emi: null }), emi)).toBe(false);
    expect(filterForEmi.accepts(gw({ emi: { supported: false } }), emi)).toBe(false);
    expect(filterForEmi.accepts(gw({ emi: { supported: true } }), emi)).toBe(true);
    expect(filterForEmi.accepts(gw({ emi: { supported: true, banks: ['hdfc'], tenures: [3, 6] } }), emi)).toBe(true);
    expect(filterForEmi.accepts(gw({ emi: { supported: true, banks: ['ICICI'] } }), emi)).toBe(false);
    expect(filterForEmi.accepts(gw({ emi: { supported: true, tenures: [12] } }), emi)).toBe(false);
    expect(filterForEmi.accepts(gw({ emi: { supported: true, banks: ['ICICI'], tenures: [12] } }), { ...emi, emiBank: null, emiTenure: null })).toBe(true);
  });
});

describe('filterByPaymentMethod', () => {
  it('checks the payment-method type, ignoring case', () => {
    expect(filterByPaymentMethod.accepts(gw({ payment_method_types: ['card', 'UPI'] }), card)).toBe(true);
    expect(filterByPaymentMethod.accepts(gw({ payment_method_types: ['UPI'] }), card)).toBe(false);
    expect(filterByPaymentMethod.accepts(gw(), upi)).toBe(true);
  });
});

describe('filterByWallet', () => {
  it('checks the wallet of wallet payments only', () => {
    expect(filterByWallet.accepts(gw({ wallets: ['paytm'] }), wallet)).toBe(true);
    expect(filterByWallet.accepts(gw({ wallets: ['PHONEPE'] }), wallet)).toBe(false);
    expect(filterByWallet.accepts(gw({ wallets: ['PHONEPE'] }), { ...wallet, paymentMethod: null })).toBe(true);
    expect(filterByWallet.accepts(gw({ wallets: ['PHONEPE'] }), card)).toBe(true);
    expect(filterByWallet.accepts(gw(), wallet)).toBe(true);
  });
});

describe('filterByUpi', () => {
  it('checks the UPI flow of UPI payments only', () => {
    expect(filterByUpi.accepts(gw({ upi_flows: ['UPI_COLLECT'] }), upi)).toBe(true);
    expect(filterByUpi.accepts(gw({ upi_flows: ['UPI_PAY'] }), upi)).toBe(false);
    expect(filterByUpi.accepts(gw({ upi_flows: ['UPI_PAY'] }), wallet)).toBe(true);
    expect(filterByUpi.accepts(gw(), upi)).toBe(true);
  });
});

describe('filterByTxnType', () => {
  it('checks the transaction object type', () => {
    expect(filterByTxnType.accepts(gw({ txn_object_types: ['ORDER_PAYMENT', 'MANDATE_REGISTER'] }), card)).toBe(true);
    expect(filterByTxnType.accepts(gw({ txn_object_types: ['MANDATE_REGISTER'] }), card)).toBe(false);
    expect(filterByTxnType.accepts(gw(), { ...card, txnObjectType: 'MANDATE_PAYMENT' })).toBe(true);
  });
});

describe('getFunctionalGateways', () => {
  const configured = [gw({ gateway: 'a' }), gw({ gateway: 'b' }), gw({ gateway: 'c' })];

  it('starts from every configured gateway, in configuration order, without an enforced list', () => {
    expect(getFunctionalGateways(configured, null).map((g) => g.gateway)).toEqual(['a', 'b', 'c']);
    expect(getFunctionalGateways(configured, []).map((g) => g.gateway)).toEqual(['a', 'b', 'c']);
  });

  it('narrows to the enforced list in its order, dropping duplicates and unconfigured names', () => {
    expect(getFunctionalGateways(configured, ['c', 'x', 'a', 'c']).map((g) => g.gateway)).toEqual(['c', 'a']);
    expect(getFunctionalGateways(configured, ['x'])).toEqual([]);
  });
});
