// The one /decide-gateway body the benches send (a Visa credit card, three gateways), and the
// three-card mix of it the load benches rotate through, kept apart from decide-load.mjs so a bench
// that sends its own load need not load autocannon. Types for the TypeScript benches: decide-body.d.mts.

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

/** Three cards (Visa, Mastercard, Amex), so the success-rate windows are three dimensions. */
export const decideCards = [
  { cardIsin: '411111', cardSwitchProvider: 'VISA', cardType: 'CREDIT' },
  { cardIsin: '510510', cardSwitchProvider: 'MASTERCARD', cardType: 'DEBIT' },
  { cardIsin: '378282', cardSwitchProvider: 'AMEX', cardType: 'CREDIT' },
];

/** The decide body of the `index`-th request of the mix: the card rotates through {@link decideCards}. */
export function decideMixBody(merchant, paymentId, index, gateways) {
  const base = decideBody(merchant, paymentId, gateways);
  return { ...base, paymentInfo: { ...base.paymentInfo, ...decideCards[index % decideCards.length] } };
}
