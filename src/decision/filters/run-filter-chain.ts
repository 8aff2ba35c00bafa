import type { GatewayCapability } from '../../generated/schema-types.js';
import { filterByAuthType } from './filter-by-auth-type.js';
import { filterByBrand } from './filter-by-brand.js';
import { filterByCurrency } from './filter-by-currency.js';
import { filterByPaymentMethod } from './filter-by-payment-method.js';
import { filterByTxnType } from './filter-by-txn-type.js';
import { filterByUpi } from './filter-by-upi.js';
import { filterByWallet } from './filter-by-wallet.js';
import { filterForEmi } from './filter-for-emi.js';
import { filterFunctionalGateways } from './filter-functional-gateways.js';
import { getFunctionalGateways } from './get-functional-gateways.js';
import type { GatewayFilter, LegacyTxn } from './legacy-txn.js';

/**
 * The filters of decision-engine's `newGwFilters` (§3.8) that this service's capability
 * configuration can answer, in upstream order. Left out (no data behind them here): reverse penny
 * drop, validation type, offers, token provider, NB-only, consumer finance, txn detail type,
 * reward, cash, split settlement, merchant required flow, OTM, PIX. Each step reports the name the
 * reference puts in `filter_list` (its `DeciderFilterName` with a lower-case first letter, e.g.
 * `filterFunctionalGatewaysForCurrency`), so clients reading the trace see the same keys.
 */
export const legacyFilterChain: readonly GatewayFilter[] = [
  filterByCurrency,
  filterFunctionalGateways,
  filterByBrand,
  filterByAuthType,
  filterForEmi,
  filterByPaymentMethod,
  filterByWallet,
  filterByUpi,
  filterByTxnType,
];

export interface FilterChainResult {
  /** The surviving gateway names, in candidate order. */
  readonly gateways: readonly string[];
  /** Each step with the gateways left after it (`filter_list`), starting with getFunctionalGateways. */
  readonly steps: readonly (readonly [string, readonly string[]])[];
  /** Each step with the gateways it removed (`filter_wise_gateways`). */
  readonly removed: Readonly<Record<string, readonly string[]>>;
}

/**
 * Runs the legacy chain over the merchant's gateway capabilities. Every step runs, even after the
 * set is empty, so the answer shows the whole chain; an empty result is the caller's
 * GATEWAY_NOT_FOUND.
 */
export function runFilterChain(
  configured: readonly GatewayCapability[],
  enforced: readonly string[] | null | undefined,
  txn: LegacyTxn,
  chain: readonly GatewayFilter[] = legacyFilterChain,
): FilterChainResult {
  let current = getFunctionalGateways(configured, enforced);
  const names = (gateways: readonly GatewayCapability[]) => gateways.map((gateway) => gateway.gateway);
  const steps: (readonly [string, readonly string[]])[] = [['getFunctionalGateways', names(current)]];
  const removed: Record<string, readonly string[]> = Object.create(null) as Record<string, readonly string[]>;
  const enforcedSet = new Set(enforced ?? []);
  removed['getFunctionalGateways'] = enforcedSet.size === 0 ? [] : [...enforcedSet].filter((name) => !current.some((gateway) => gateway.gateway === name));
  for (const filter of chain) {
    const kept = current.filter((gateway) => filter.accepts(gateway, txn));
    removed[filter.name] = names(current.filter((gateway) => !kept.includes(gateway)));
    steps.push([filter.name, names(kept)]);
    current = kept;
  }
  return { gateways: names(current), steps, removed };
}
