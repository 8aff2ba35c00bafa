import type { GatewayFilter } from './legacy-txn.js';
import { allows } from './legacy-txn.js';

/** Keeps gateways that process the transaction's object type (ORDER_PAYMENT, MANDATE_REGISTER, …). */
export const filterByTxnType: GatewayFilter = {
  name: 'filterFunctionalGatewaysForTxnType',
  accepts: (gateway, txn) => allows(gateway.txn_object_types, txn.txnObjectType),
};
