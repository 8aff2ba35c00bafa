import type { GatewayFilter } from './legacy-txn.js';
import { allows } from './legacy-txn.js';

/**
 * EMI payments: keeps gateways with EMI support, for the payment's bank and tenure when the
 * gateway lists them. Other payments pass.
 */
export const filterForEmi: GatewayFilter = {
  name: 'filterFunctionalGatewaysForEmi',
  accepts: (gateway, txn) => {
    if (!txn.isEmi) return true;
    const emi = gateway.emi;
    if (emi === null || emi === undefined || !emi.supported) return false;
    if (txn.emiBank !== null && !allows(emi.banks, txn.emiBank)) return false;
    return txn.emiTenure === null || emi.tenures === null || emi.tenures === undefined || emi.tenures.includes(txn.emiTenure);
  },
};
