/**
 * A /decide-gateway body: a Visa credit card over stripe and adyen, SR routing. `overrides` replaces
 * top-level fields. In a module of its own, so a unit test can build one without loading the app.
 */
export function decideBody(merchantId: string, paymentId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    merchantId,
    eligibleGatewayList: ['stripe', 'adyen'],
    rankingAlgorithm: 'SR_BASED_ROUTING',
    eliminationEnabled: false,
    paymentInfo: {
      paymentId,
      amount: 100,
      currency: 'USD',
      country: 'US',
      paymentType: 'ORDER_PAYMENT',
      paymentMethodType: 'CARD',
      paymentMethod: 'CREDIT',
      authType: 'THREE_DS',
      cardIsin: '411111',
      cardType: 'CREDIT',
      cardSwitchProvider: 'VISA',
    },
    ...overrides,
  };
}
