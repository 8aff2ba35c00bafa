/**
 * A legacy POST /decision_gateway body (Euler's DomainDeciderRequest), shaped like
 * decision-engine's postman example: a USD VISA credit card payment with 3DS.
 * `overrides` replace whole top-level parts; `patch` merges into txnDetail / txnCardInfo / orderReference.
 */
export function legacyDecisionBody(
  merchantId: string,
  paymentId: string,
  patch: { orderReference?: Record<string, unknown>; txnDetail?: Record<string, unknown>; txnCardInfo?: Record<string, unknown> } = {},
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    orderReference: {
      id: 1,
      orderId: `order_${paymentId}`,
      amount: 1000,
      currency: 'USD',
      dateCreated: '2026-04-30T00:00:00.000000000Z',
      merchantId,
      status: 'NEW',
      orderType: 'ORDER_PAYMENT',
      udfs: [],
      customerId: 'cust_123',
      preferredGateway: null,
      metadata: null,
      ...patch.orderReference,
    },
    orderMetadata: {
      id: 1,
      dateCreated: '2026-04-30T00:00:00.000000000Z',
      lastUpdated: '2026-04-30T00:00:00.000000000Z',
      orderReferenceId: 1,
      partitionKey: null,
    },
    txnDetail: {
      id: 1,
      dateCreated: '2026-04-30T00:00:00.000000000Z',
      orderId: `order_${paymentId}`,
      status: 'PENDING_VBV',
      txnId: `txn_${paymentId}`,
      merchantId,
      txnUuid: paymentId,
      currency: 'USD',
      txnAmount: 1000,
      txnObjectType: 'ORDER_PAYMENT',
      txnType: 'ORDER_PAYMENT',
      gateway: 'stripe',
      sourceObject: 'CREDIT',
      isEmi: false,
      partitionKey: null,
      ...patch.txnDetail,
    },
    txnCardInfo: {
      id: 1,
      txnId: `txn_${paymentId}`,
      txnDetailId: 1,
      dateCreated: '2026-04-30T00:00:00.000000000Z',
      paymentMethodType: 'CARD',
      paymentMethod: 'CREDIT',
      authType: 'THREE_DS',
      cardIsin: '411111',
      cardType: 'CREDIT',
      cardSwitchProvider: 'VISA',
      partitionKey: null,
      ...patch.txnCardInfo,
    },
    merchantAccount: { id: 1, merchantId, gatewayPriorityLogic: '', useCodeForGatewayPriority: true, gatewaySuccessRateBasedDeciderInput: '{}' },
    enforceGatewayList: ['stripe', 'paypal', 'adyen'],
    priorityLogicScript: null,
    priorityLogicOutput: null,
    ...overrides,
  };
}
