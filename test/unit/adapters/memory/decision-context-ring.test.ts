import { describe, expect, it } from 'vitest';
import { DecisionContextRing } from '../../../../src/adapters/memory/decision-context-ring.js';
import type { DecisionContext } from '../../../../src/ports/state-store.js';
import { cardPayment, upiPayment } from '../../../fixtures/payment-dimensions.js';

const ttlMs = 1_800_000;

function context(paymentId: string, overrides: Partial<DecisionContext> = {}): DecisionContext {
  return {
    merchantId: 'm1',
    paymentId,
    decidedAt: 1_700_000_000_123,
    decisionEventId: `event-${paymentId}`,
    windowDimension: 'gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT',
    eliminationDimension: 'gw_score_m1_ORDER_PAYMENT_CARD_CREDIT_CREDIT',
    eliminationEnabled: true,
    routingApproach: 'SR_SELECTION_V3_ROUTING',
    orderType: 'ORDER_PAYMENT',
    payment: { ...cardPayment, amount: 100.25 },
    ...overrides,
  };
}

describe('DecisionContextRing', () => {
  it('gives back every field as it was put, the amount and time unboxed and the sticky customer only where there was one', () => {
    const ring = new DecisionContextRing(10);
    const plain = context('p1');
    const sticky = context('p2', {
      decidedAt: 1_700_000_000_999,
      sticky: { customerKey: 'a'.repeat(64), combo: 'CREDIT:CARD' },
      payment: { ...plain.payment, amount: 7 },
    });
    ring.put(plain, ttlMs);
    ring.put(sticky, ttlMs);
    expect(ring.get('m1', 'p1', 0)).toStrictEqual(plain);
    expect(ring.get('m1', 'p2', 0)).toStrictEqual(sticky);
  });

  it('keeps what tells two decisions apart even where their shapes are alike: nulls, a value that spells null, another merchant', () => {
    const ring = new DecisionContextRing(10);
    const base = context('p1');
    const variants: DecisionContext[] = [
      base,
      context('p2', { payment: { ...base.payment, country: 'null' } }),
      context('p8', { payment: { ...base.payment, country: null } }),
      context('p3', { payment: { ...base.payment, cardType: 'CRED', cardNetwork: 'ITVISA' } }),
      context('p6', { payment: { ...base.payment, cardType: null } }),
      context('p7', { payment: upiPayment }),
      context('p4', { windowDimension: null }),
      context('p5', { eliminationEnabled: false, routingApproach: 'PRIORITY_LOGIC' }),
      context('p1', { merchantId: 'm2', eliminationDimension: 'gw_score_m2_ORDER_PAYMENT_CARD_CREDIT_CREDIT' }),
    ];
    for (const each of variants) ring.put(each, ttlMs);
    for (const each of variants) expect(ring.get(each.merchantId, each.paymentId, 0)).toStrictEqual(each);
    expect(ring.get('m2', 'p2', 0)).toBeUndefined();
  });

  it('tells apart contexts of one merchant that differ in any one field of their shape, past the shapes a merchant keeps at hand', () => {
    const ring = new DecisionContextRing(100);
    const base = context('base');
    const payment = base.payment;
    const variants: DecisionContext[] = [
      base,
      context('window', { windowDimension: `${base.windowDimension}_VISA` }),
      context('elimination', { eliminationDimension: `${base.eliminationDimension}_X` }),
      context('enabled', { eliminationEnabled: false }),
      context('approach', { routingApproach: 'SR_V3_DOWNTIME_ROUTING' }),
      context('order', { orderType: 'MANDATE_REGISTER' }),
      ...(['orderType', 'paymentMethodType', 'paymentMethod', 'cardType', 'cardNetwork', 'cardIsIn', 'currency', 'country', 'authType'] as const).map((field) =>
        context(field, { payment: { ...payment, [field]: `${payment[field] ?? ''}2` } }),
      ),
    ];
    // Twice round: the second pass finds each shape again after more than a merchant's recent few were seen.
    for (const round of [1, 2]) {
      for (const each of variants) ring.put({ ...each, paymentId: `${each.paymentId}-${round}` }, ttlMs);
      for (const each of variants) expect(ring.get('m1', `${each.paymentId}-${round}`, 0)).toStrictEqual({ ...each, paymentId: `${each.paymentId}-${round}` });
    }
  });

  it('overwrites the oldest context past its capacity, and a payment decided again keeps its latest context when its first slot goes', () => {
    const ring = new DecisionContextRing(3);
    ring.put(context('p1', { routingApproach: 'FIRST' }), ttlMs);
    ring.put(context('p2'), ttlMs);
    ring.put(context('p1', { routingApproach: 'SECOND' }), ttlMs);
    // p1's first slot is the oldest: overwriting it must not drop p1's latest context.
    ring.put(context('p3'), ttlMs);
    expect(ring.get('m1', 'p1', 0)?.routingApproach).toBe('SECOND');
    ring.put(context('p4'), ttlMs);
    expect(ring.get('m1', 'p2', 0)).toBeUndefined();
    expect([ring.get('m1', 'p1', 0)?.routingApproach, ring.get('m1', 'p3', 0)?.paymentId, ring.get('m1', 'p4', 0)?.paymentId]).toEqual(['SECOND', 'p3', 'p4']);
    ring.put(context('p5'), ttlMs);
    expect(ring.get('m1', 'p1', 0)).toBeUndefined();
  });

  it('answers nothing for an expired context, and a sweep clears the expired oldest ones so their slots are written again in order', () => {
    const ring = new DecisionContextRing(4);
    ring.put(context('p1'), 1000);
    ring.put(context('p2'), 2000);
    ring.put(context('p3'), 3000);
    expect(ring.get('m1', 'p1', 1000)).toBeUndefined();
    expect(ring.get('m1', 'p2', 1000)?.paymentId).toBe('p2');
    ring.sweep(2000);
    // Two slots swept and one never used: three more fit before p3 is overwritten.
    for (const paymentId of ['p4', 'p5', 'p6']) ring.put(context(paymentId), 9000);
    expect(ring.get('m1', 'p3', 2500)?.paymentId).toBe('p3');
    ring.put(context('p7'), 9000);
    expect(ring.get('m1', 'p3', 2500)).toBeUndefined();
    for (const paymentId of ['p4', 'p5', 'p6', 'p7']) expect(ring.get('m1', paymentId, 2500)?.paymentId).toBe(paymentId);
  });

  it('grows its arrays past the first allocation and wraps around at its capacity', () => {
    const ring = new DecisionContextRing(2500);
    for (let index = 0; index < 6000; index += 1)
      ring.put(context(`p${index}`, { decidedAt: index, payment: { ...context('x').payment, amount: index } }), ttlMs);
    expect(ring.get('m1', 'p3499', 0)).toBeUndefined();
    for (const index of [3500, 4700, 5999]) expect(ring.get('m1', `p${index}`, 0)).toMatchObject({ decidedAt: index, payment: { amount: index } });
  });

  it('refuses a capacity that is not a whole number of contexts', () => {
    expect(() => new DecisionContextRing(0)).toThrow(RangeError);
    expect(() => new DecisionContextRing(1.5)).toThrow(RangeError);
  });
});
