import type { GatewayFilter } from './legacy-txn.js';
import { allows } from './legacy-txn.js';

/** UPI payments naming a flow (UPI_COLLECT, UPI_PAY, …): keeps gateways that support that flow. */
export const filterByUpi: GatewayFilter = {
  name: 'filterFunctionalGatewaysForUpi',
  accepts: (gateway, txn) => txn.paymentMethodType !== 'UPI' || txn.paymentMethod === null || allows(gateway.upi_flows, txn.paymentMethod),
};
