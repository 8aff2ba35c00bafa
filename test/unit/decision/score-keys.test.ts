import { describe, expect, it } from 'vitest';
import { eliminationDimensionOf, eliminationKeyOf } from '../../../src/decision/elimination-key.js';
import { eliminationKeysOf, windowKeysOf } from '../../../src/decision/score-keys.js';
import { windowKeyFor } from '../../../src/decision/window-key.js';

const card = { orderType: 'ORDER_PAYMENT', paymentMethodType: 'CARD', paymentMethod: 'CREDIT', cardType: 'DEBIT' };

describe('score keys remembered per dimension', () => {
  it('are the keys windowKeyFor and eliminationKeyOf build, on the first call and after', () => {
    const gateways = ['stripe', 'adyen', 'checkout'];
    const windowDimension = 'gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT';
    const windows = windowKeysOf(windowDimension, gateways);
    expect(windows).toEqual(gateways.map((gateway) => windowKeyFor(windowDimension, gateway)));
    expect(windowKeysOf(windowDimension, gateways)).toEqual(windows);

    const input = { merchantId: 'm1', ...card };
    const dimension = eliminationDimensionOf(input);
    const eliminations = eliminationKeysOf('m1', card, dimension, gateways);
    expect(eliminations).toEqual(gateways.map((gateway) => eliminationKeyOf(input, gateway)));
    expect(eliminationKeysOf('m1', card, dimension, ['adyen'])).toEqual([eliminationKeyOf(input, 'adyen')]);
  });

  it("puts the gateway where each payment's own key has it when two dimensions read alike", () => {
    // `_` inside the order type and the method type: the same dimension text, the gateway in different places.
    const first = { merchantId: 'm2', orderType: 'A_B', paymentMethodType: 'C', paymentMethod: 'D', cardType: null };
    const second = { merchantId: 'm2', orderType: 'A', paymentMethodType: 'B_C', paymentMethod: 'D', cardType: null };
    const dimension = eliminationDimensionOf(first);
    expect(eliminationDimensionOf(second)).toBe(dimension);
    const { merchantId: _first, ...firstPayment } = first;
    const { merchantId: _second, ...secondPayment } = second;
    expect(eliminationKeysOf('m2', firstPayment, dimension, ['gw'])).toEqual([eliminationKeyOf(first, 'gw')]);
    expect(eliminationKeysOf('m2', secondPayment, dimension, ['gw'])).toEqual([eliminationKeyOf(second, 'gw')]);
    expect(eliminationKeyOf(first, 'gw')).not.toBe(eliminationKeyOf(second, 'gw'));
    expect(eliminationKeysOf('m2', firstPayment, dimension, ['gw'])).toEqual([eliminationKeyOf(first, 'gw')]);
  });

  it('still answers every gateway of a dimension past what it remembers', () => {
    const gateways = Array.from({ length: 100 }, (_, index) => `gw${index}`);
    const dimension = 'gw_sr_v3_score_m3_ORDER_PAYMENT_CARD_CREDIT';
    expect(windowKeysOf(dimension, gateways)).toEqual(gateways.map((gateway) => windowKeyFor(dimension, gateway)));
    expect(windowKeysOf(dimension, gateways)).toEqual(gateways.map((gateway) => windowKeyFor(dimension, gateway)));
  });
});
