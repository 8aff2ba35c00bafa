import type { GatewayFilter } from './legacy-txn.js';

/** Drops gateways the merchant switched off (`enabled: false`). */
export const filterFunctionalGateways: GatewayFilter = {
  name: 'filterFunctionalGateways',
  accepts: (gateway) => gateway.enabled !== false,
};
