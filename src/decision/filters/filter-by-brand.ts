import type { GatewayFilter } from './legacy-txn.js';
import { allows } from './legacy-txn.js';

/** Card payments with a known network: keeps gateways that take that card brand. */
export const filterByBrand: GatewayFilter = {
  name: 'filterFunctionalGatewaysForBrand',
  accepts: (gateway, txn) => txn.paymentMethodType !== 'CARD' || txn.cardBrand === null || allows(gateway.card_brands, txn.cardBrand),
};
