import { SwitchyardError } from '../../errors/switchyard-error.js';
import { isGlobalNetwork, type CardNetwork } from './card-network.js';
import type { FeeRate, NetworkFeeTable } from './network-fee-table.js';
import type { CoBadgedCard } from './parse-co-badged-metadata.js';

export interface RankedNetwork {
  readonly network: CardNetwork;
  /** interchange + network fee, in amount units. */
  readonly fee: number;
  /** Percent of the amount saved against the cheapest global network, 2 dp; 0 when none. */
  readonly savingPercentage: number;
}

/**
 * The fee model of §5.2: each network's fee = interchange + network fee, each part
 * `amount · percentage / 100 + fixedAmount`; regulated cards pay the regulated interchange (plus
 * the fraud-check fee for the non-exempt-with-fraud regulated name) whatever the network.
 * Networks are sorted ascending by fee, stable over the listed order.
 *
 * Savings: if the cheapest network is global, or no global network is listed, every saving is 0.
 * Otherwise the baseline is the cheapest global network's fee and each cheaper network saves
 * `round((baseline − fee) / amount · 10000) / 100` percent.
 *
 * `card` must come from parseCoBadgedMetadata with the same `fees`, which guarantees fee data.
 */
export function rankNetworks(card: CoBadgedCard, amount: number, fees: NetworkFeeTable): RankedNetwork[] {
  const priced = card.networks.map((network) => ({ network, fee: feeOf(network, card, amount, fees) }));
  priced.sort((a, b) => a.fee - b.fee);
  const cheapest = priced[0];
  const baseline = priced.find((item) => isGlobalNetwork(item.network));
  const savingsApply = cheapest !== undefined && !isGlobalNetwork(cheapest.network) && baseline !== undefined && amount > 0;
  return priced.map(({ network, fee }) => ({
    network,
    fee,
    savingPercentage: savingsApply && baseline.fee > fee ? Math.round(((baseline.fee - fee) / amount) * 10000) / 100 : 0,
  }));
}

function feeOf(network: CardNetwork, card: CoBadgedCard, amount: number, fees: NetworkFeeTable): number {
  const networkFee = fees.networkFee[network];
  const interchange = card.isRegulated ? fees.regulated : fees.nonRegulated[card.merchantCategoryCode]?.[network];
  if (networkFee === undefined || interchange === undefined) {
    // Unreachable when `card` was parsed against the same table; reaching it is a wiring bug.
    throw new SwitchyardError('SY_INTERNAL', {
      message: 'a co-badged network has no fee data; parse the metadata against the same fee table',
      details: { network },
    });
  }
  const fraudCheck = card.isRegulated && card.regulatedName === fees.regulatedNameWithFraudCheck ? fees.fraudCheckFee : 0;
  return part(interchange, amount) + fraudCheck + part(networkFee, amount);
}

function part(rate: FeeRate, amount: number): number {
  return (amount * rate.percentage) / 100 + rate.fixedAmount;
}
