import { cardPayment } from '../../fixtures/payment-dimensions.js';
import { describe, expect, it } from 'vitest';
import type { PaymentDimensions } from '../../../src/generated/schema-types.js';
import { windowDimensionOf, windowKeyFor } from '../../../src/decision/window-key.js';

const card: PaymentDimensions = cardPayment;

describe('windowDimensionOf', () => {
  it('builds the base dimension without an SR dimension config', () => {
    expect(windowDimensionOf('m1', card, null, undefined)).toBe('gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT');
  });

  it('appends configured fields in their configured order', () => {
    const config = { udfs: [], fields: ['currency', 'card_network', 'country', 'auth_type', 'card_is_in'] };
    expect(windowDimensionOf('m1', card, null, config)).toBe('gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT_USD_VISA_US_THREE_DS_411111');
    const reversed = { udfs: [], fields: ['card_network', 'currency'] };
    expect(windowDimensionOf('m1', card, null, reversed)).toBe('gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT_VISA_USD');
  });

  it('skips a configured field whose value is absent', () => {
    const config = { udfs: [], fields: ['country', 'currency'] };
    expect(windowDimensionOf('m1', { ...card, country: null }, null, config)).toBe('gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT_USD');
  });

  it('accepts the upstream paymentInfo. prefix and ignores unknown fields', () => {
    const config = { udfs: [], fields: ['paymentInfo.currency', 'bogus', 'constructor', '__proto__'] };
    expect(windowDimensionOf('m1', card, null, config)).toBe('gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT_USD');
  });

  it('writes UNKNOWN for empty components', () => {
    const payment = { ...card, paymentMethod: '', currency: '' };
    expect(windowDimensionOf('m1', payment, null, { udfs: [], fields: ['currency'] })).toBe('gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_UNKNOWN_UNKNOWN');
  });

  it('appends configured udfs by 0-based index after the fields', () => {
    const config = { udfs: [2, 0], fields: ['currency'] };
    expect(windowDimensionOf('m1', card, ['a', null, 'c'], config)).toBe('gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT_USD_c_a');
  });

  it('appends no udf at all when any configured udf is missing', () => {
    const config = { udfs: [0, 1], fields: ['currency'] };
    expect(windowDimensionOf('m1', card, ['a', null, 'c'], config)).toBe('gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT_USD');
    expect(windowDimensionOf('m1', card, ['a'], { udfs: [0, 5] })).toBe('gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT');
    expect(windowDimensionOf('m1', card, null, { udfs: [0] })).toBe('gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT');
  });

  it('writes UNKNOWN for an empty udf value', () => {
    expect(windowDimensionOf('m1', card, ['', 'b'], { udfs: [0, 1] })).toBe('gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT_UNKNOWN_b');
  });
});

describe('windowKeyFor', () => {
  it('appends the gateway to the dimension', () => {
    expect(windowKeyFor('gw_sr_v3_score_m1_ORDER_PAYMENT_UPI_UPI_PAY', 'stripe')).toBe('gw_sr_v3_score_m1_ORDER_PAYMENT_UPI_UPI_PAY_stripe');
  });
});
