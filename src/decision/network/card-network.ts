/**
 * Card networks debit routing knows (decision-engine §5.1). Global networks are the card's brand;
 * local networks are the US debit networks a co-badged card can also be routed over.
 */
export const cardNetworks = ['VISA', 'MASTERCARD', 'AMEX', 'DINERS', 'RUPAY', 'STAR', 'PULSE', 'ACCEL', 'NYCE'] as const;
export type CardNetwork = (typeof cardNetworks)[number];

const globalNetworks: ReadonlySet<CardNetwork> = new Set<CardNetwork>(['VISA', 'MASTERCARD', 'AMEX', 'DINERS', 'RUPAY']);
const byUpperName: ReadonlyMap<string, CardNetwork> = new Map(cardNetworks.map((network) => [network, network]));

export function isGlobalNetwork(network: CardNetwork): boolean {
  return globalNetworks.has(network);
}

/**
 * Reads a network name as clients send it. Matching ignores case because decision-engine accepts
 * case aliases (`Visa`, `visa`); undefined when the name is no network we know.
 */
export function cardNetworkOf(name: string): CardNetwork | undefined {
  return byUpperName.get(name.trim().toUpperCase());
}
