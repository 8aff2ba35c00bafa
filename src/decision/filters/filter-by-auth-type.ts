import type { GatewayFilter } from './legacy-txn.js';
import { allows } from './legacy-txn.js';

/** Payments with an auth type (THREE_DS, OTP, …): keeps gateways that support it. */
export const filterByAuthType: GatewayFilter = {
  name: 'filterFunctionalGatewaysForAuthType',
  accepts: (gateway, txn) => txn.authType === null || allows(gateway.auth_types, txn.authType),
};
