import { upiPayment } from '../../fixtures/payment-dimensions.js';
import { describe, expect, it } from 'vitest';
import type { PaymentDimensions } from '../../../src/generated/schema-types.js';
import { routingDimensionOf } from '../../../src/decision/routing-dimension.js';

const base: PaymentDimensions = upiPayment;

describe('routingDimensionOf', () => {
  it('joins order type, method type and method at PM level for non-card payments', () => {
    expect(routingDimensionOf(base)).toEqual({ routingDimension: 'ORDER_PAYMENT, UPI, UPI_PAY', routingDimensionLevel: 'PM_LEVEL' });
  });

  it('adds the card type at card level for card payments', () => {
    expect(routingDimensionOf({ ...base, paymentMethodType: 'CARD', paymentMethod: 'CREDIT', cardType: 'CREDIT' })).toEqual({
      routingDimension: 'ORDER_PAYMENT, CARD, CREDIT, CREDIT',
      routingDimensionLevel: 'CARD_LEVEL',
    });
  });

  it('writes UNKNOWN for empty parts', () => {
    expect(routingDimensionOf({ ...base, paymentMethodType: 'CARD', paymentMethod: '' }).routingDimension).toBe('ORDER_PAYMENT, CARD, UNKNOWN, UNKNOWN');
  });
});
