import type { GatewayFilter } from './legacy-txn.js';
import { allows } from './legacy-txn.js';

/** Keeps gateways that settle the payment's currency. */
export const filterByCurrency: GatewayFilter = {
  name: 'filterFunctionalGatewaysForCurrency',
  accepts: (gateway, txn) => allows(gateway.currencies, txn.currency),
};
