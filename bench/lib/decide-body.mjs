// The one /decide-gateway body the benches send (a Visa credit card, three gateways), kept apart from
// decide-load.mjs so a bench that sends its own load need not load autocannon.

export function decideBody(merchant, paymentId, gateways = ['stripe', 'adyen', 'checkout']) {
  return {
    merchantId: merchant,
    eligibleGatewayList: gateways,
    rankingAlgorithm: 'SR_BASED_ROUTING',
    eliminationEnabled: true,
    paymentInfo: {
      paymentId,
      amount: 100,
      currency: 'USD',
      paymentType: 'ORDER_PAYMENT',
      paymentMethodType: 'CARD',
      paymentMethod: 'CREDIT',
      cardType: 'CREDIT',
      authType: 'THREE_DS',
      cardIsin: '411111',
      cardSwitchProvider: 'VISA',
    },
  };
}
