import type { NetworkFeeTable } from './network-fee-table.js';
import { parseCoBadgedMetadata, type CoBadgedProblem } from './parse-co-badged-metadata.js';
import { rankNetworks } from './rank-networks.js';

/** `debit_routing_output` of a decision, camelCase (the API writes snake_case keys). */
export interface DebitRoutingOutput {
  readonly coBadgedCardNetworksInfo: readonly { readonly network: string; readonly savingPercentage: number }[];
  readonly issuerCountry: string;
  readonly isRegulated: boolean;
  readonly regulatedName: string | null;
  readonly cardType: 'debit' | 'credit';
}

export type DebitRoutingResult =
  | { readonly ok: true; readonly output: DebitRoutingOutput }
  | { readonly ok: false; readonly problem: CoBadgedProblem; readonly detail: string };

/** Network (debit) routing for one payment: decode its metadata, price and rank its networks (§5). */
export function debitRoutingOutputOf(metadata: string | null | undefined, amount: number, fees: NetworkFeeTable): DebitRoutingResult {
  const parsed = parseCoBadgedMetadata(metadata, fees);
  if (!parsed.ok) return parsed;
  const { card } = parsed;
  const ranked = rankNetworks(card, amount, fees);
  return {
    ok: true,
    output: {
      coBadgedCardNetworksInfo: ranked.map(({ network, savingPercentage }) => ({ network, savingPercentage })),
      issuerCountry: card.issuerCountry,
      isRegulated: card.isRegulated,
      regulatedName: card.regulatedName,
      cardType: card.cardType,
    },
  };
}
