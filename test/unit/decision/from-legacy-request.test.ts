import { describe, expect, it } from 'vitest';
import type { LegacyDeciderRequest } from '../../../src/generated/schema-types.js';
import { fromLegacyRequest } from '../../../src/decision/from-legacy-request.js';

const body: LegacyDeciderRequest = {
  orderReference: {
    amount: 10,
    currency: 'EUR',
    merchantId: 'm1',
    orderType: 'MANDATE_REGISTER',
    udfs: { udf3: 'c', udf1: 'a' },
    customerId: 'c1',
    preferredGateway: 'stripe',
  },
  txnDetail: { txnUuid: 'p1', merchantId: 'm1', currency: 'USD', txnAmount: 12.5, sourceObject: 'upi_pay', isEmi: true, emiBank: 'HDFC', emiTenure: 6 },
  txnCardInfo: { paymentMethodType: 'upi', paymentMethod: null, authType: null, cardSwitchProvider: 'visa' },
  merchantAccount: { merchantId: 'm1' },
  enforceGatewayList: ['a'],
};

describe('fromLegacyRequest', () => {
  it('reads txnDetail before orderReference and normalises what the filters compare', () => {
    const input = fromLegacyRequest(body);
    expect(input.merchantId).toBe('m1');
    expect(input.namedMerchants).toEqual(['m1']);
    expect(input.enforcedGateways).toEqual(['a']);
    expect(input.txn).toEqual({
      currency: 'USD',
      paymentMethodType: 'UPI',
      paymentMethod: 'UPI_PAY',
      cardBrand: 'VISA',
      authType: null,
      isEmi: true,
      emiBank: 'HDFC',
      emiTenure: 6,
      txnObjectType: 'MANDATE_REGISTER',
    });
  });

  it('builds the /decide-gateway request the survivors are scored with', () => {
    const request = fromLegacyRequest(body).decideRequest(['b', 'c']);
    expect(request).toMatchObject({ merchantId: 'm1', eligibleGatewayList: ['b', 'c'], rankingAlgorithm: 'SR_BASED_ROUTING', eliminationEnabled: false });
    expect(request.paymentInfo).toMatchObject({
      paymentId: 'p1',
      amount: 12.5,
      currency: 'USD',
      paymentType: 'MANDATE_REGISTER',
      paymentMethodType: 'UPI',
      paymentMethod: 'upi_pay',
      udfs: ['a', null, 'c'],
      preferredGateway: 'stripe',
      customerId: 'c1',
    });
  });

  it('falls back to orderReference, ORDER_PAYMENT and an empty payment method, and lists every named merchant', () => {
    const input = fromLegacyRequest({
      orderReference: { amount: 3, currency: 'INR', merchantId: 'm9' },
      txnDetail: { txnUuid: 'p2' },
      txnCardInfo: { paymentMethodType: 'NB' },
      merchantAccount: { merchantId: 'm1' },
    });
    expect(input.namedMerchants).toEqual(['m1', 'm9']);
    expect(input.txn).toMatchObject({ currency: 'INR', paymentMethod: null, txnObjectType: 'ORDER_PAYMENT', isEmi: false });
    expect(input.decideRequest([]).paymentInfo).toMatchObject({ amount: 3, currency: 'INR', paymentType: 'ORDER_PAYMENT', paymentMethod: '', udfs: null });
  });
});
