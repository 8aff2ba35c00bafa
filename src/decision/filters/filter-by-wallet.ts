import type { GatewayFilter } from './legacy-txn.js';
import { allows } from './legacy-txn.js';

/** Wallet payments naming a wallet: keeps gateways that take that wallet. */
export const filterByWallet: GatewayFilter = {
  name: 'filterFunctionalGatewaysForWallet',
  accepts: (gateway, txn) => txn.paymentMethodType !== 'WALLET' || txn.paymentMethod === null || allows(gateway.wallets, txn.paymentMethod),
};
