import type { PaymentDimensions, PaymentInfo } from '../generated/schema-types.js';

/**
 * The routing dimensions of a payment, normalised the way decision-engine builds its internal txn
 * record (§3.1 step 3): the payment-method type is upper-cased, the payment method is kept verbatim,
 * the order type is the payment type, and the card network is `cardSwitchProvider`.
 * Every key, match and event downstream reads these values, never the raw request.
 */
export function paymentDimensionsOf(paymentInfo: PaymentInfo): PaymentDimensions {
  return {
    orderType: paymentInfo.paymentType,
    paymentMethodType: paymentInfo.paymentMethodType.toUpperCase(),
    paymentMethod: paymentInfo.paymentMethod,
    cardType: paymentInfo.cardType ?? null,
    cardNetwork: paymentInfo.cardSwitchProvider ?? null,
    cardIsIn: paymentInfo.cardIsin ?? null,
    currency: paymentInfo.currency,
    country: paymentInfo.country ?? null,
    authType: paymentInfo.authType ?? null,
    amount: paymentInfo.amount,
  };
}
