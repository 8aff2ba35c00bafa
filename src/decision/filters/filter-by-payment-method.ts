import type { GatewayFilter } from './legacy-txn.js';
import { allows } from './legacy-txn.js';

/** Keeps gateways that take the payment-method type (CARD, UPI, WALLET, NB, …). */
export const filterByPaymentMethod: GatewayFilter = {
  name: 'filterFunctionalGatewaysForPaymentMethod',
  accepts: (gateway, txn) => allows(gateway.payment_method_types, txn.paymentMethodType),
};
