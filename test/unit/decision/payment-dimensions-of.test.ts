import { describe, expect, it } from 'vitest';
import { paymentDimensionsOf } from '../../../src/decision/payment-dimensions-of.js';

describe('paymentDimensionsOf', () => {
  it('upper-cases the method type, keeps the method and maps card fields', () => {
    expect(
      paymentDimensionsOf({
        paymentId: 'pay_1',
        amount: 100.5,
        currency: 'USD',
        paymentType: 'ORDER_PAYMENT',
        paymentMethodType: 'card',
        paymentMethod: 'Credit',
        cardType: 'CREDIT',
        cardSwitchProvider: 'VISA',
        cardIsin: '411111',
        country: 'US',
        authType: 'THREE_DS',
      }),
    ).toEqual({
      orderType: 'ORDER_PAYMENT',
      paymentMethodType: 'CARD',
      paymentMethod: 'Credit',
      cardType: 'CREDIT',
      cardNetwork: 'VISA',
      cardIsIn: '411111',
      currency: 'USD',
      country: 'US',
      authType: 'THREE_DS',
      amount: 100.5,
    });
  });

  it('uses null for absent optional fields', () => {
    const dimensions = paymentDimensionsOf({
      paymentId: 'pay_1',
      amount: 1,
      currency: 'INR',
      paymentType: 'MANDATE_PAYMENT',
      paymentMethodType: 'UPI',
      paymentMethod: 'UPI_COLLECT',
    });
    expect(dimensions).toMatchObject({ cardType: null, cardNetwork: null, cardIsIn: null, country: null, authType: null });
  });
});
