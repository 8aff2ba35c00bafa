import { describe, expect, it } from 'vitest';
import { eliminationDimensionOf, eliminationKeyFromDimension, eliminationKeyOf, type EliminationKeyInput } from '../../../src/decision/elimination-key.js';

const upi: EliminationKeyInput = { merchantId: 'm1', orderType: 'ORDER_PAYMENT', paymentMethodType: 'UPI', paymentMethod: 'UPI_PAY', cardType: null };
const card: EliminationKeyInput = { merchantId: 'm1', orderType: 'ORDER_PAYMENT', paymentMethodType: 'CARD', paymentMethod: 'CREDIT', cardType: 'DEBIT' };

describe('eliminationKeyOf', () => {
  it('puts the gateway between the order type and the method type', () => {
    expect(eliminationKeyOf(upi, 'stripe')).toBe('gw_score_m1_ORDER_PAYMENT_stripe_UPI_UPI_PAY');
  });

  it('appends the card type for card payments', () => {
    expect(eliminationKeyOf(card, 'adyen')).toBe('gw_score_m1_ORDER_PAYMENT_adyen_CARD_CREDIT_DEBIT');
  });

  it('appends UNKNOWN for a card payment without a card type', () => {
    expect(eliminationKeyOf({ ...card, cardType: null }, 'adyen')).toBe('gw_score_m1_ORDER_PAYMENT_adyen_CARD_CREDIT_UNKNOWN');
  });

  it('writes UNKNOWN for empty parts', () => {
    expect(eliminationKeyOf({ ...upi, paymentMethod: '' }, 'stripe')).toBe('gw_score_m1_ORDER_PAYMENT_stripe_UPI_UNKNOWN');
  });
});

describe('eliminationDimensionOf', () => {
  it('is the elimination key without the gateway part', () => {
    expect(eliminationDimensionOf(upi)).toBe('gw_score_m1_ORDER_PAYMENT_UPI_UPI_PAY');
    expect(eliminationDimensionOf(card)).toBe('gw_score_m1_ORDER_PAYMENT_CARD_CREDIT_DEBIT');
  });
});

describe('eliminationKeyFromDimension', () => {
  it('rebuilds the same key a decision would read, for any gateway', () => {
    for (const input of [upi, card, { ...upi, merchantId: 'shop_with_underscores', orderType: 'TPV_MANDATE_PAYMENT' }]) {
      for (const gateway of ['stripe', 'pay_u', '']) {
        expect(eliminationKeyFromDimension(eliminationDimensionOf(input), input.merchantId, input.orderType, gateway)).toBe(eliminationKeyOf(input, gateway));
      }
    }
  });

  it('returns undefined for a dimension of another merchant or order type', () => {
    const dimension = eliminationDimensionOf(upi);
    expect(eliminationKeyFromDimension(dimension, 'm2', 'ORDER_PAYMENT', 'stripe')).toBeUndefined();
    expect(eliminationKeyFromDimension(dimension, 'm1', 'MANDATE_PAYMENT', 'stripe')).toBeUndefined();
    expect(eliminationKeyFromDimension('gw_score_m1_ORDER_PAYMENT', 'm1', 'ORDER_PAYMENT', 'stripe')).toBeUndefined();
  });
});
