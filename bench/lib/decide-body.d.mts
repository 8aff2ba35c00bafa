// Types of decide-body.mjs for the TypeScript benches (bench/unit-costs.ts).

export interface DecideCard {
  readonly cardIsin: string;
  readonly cardSwitchProvider: string;
  readonly cardType: string;
}

export interface DecideBody {
  readonly merchantId: string;
  readonly eligibleGatewayList: readonly string[];
  readonly rankingAlgorithm: string;
  readonly eliminationEnabled: boolean;
  readonly paymentInfo: Readonly<Record<string, string | number>> & { readonly paymentId: string };
}

export function decideBody(merchant: string, paymentId: string, gateways?: readonly string[]): DecideBody;
export const decideCards: readonly DecideCard[];
export function decideMixBody(merchant: string, paymentId: string, index: number, gateways?: readonly string[]): DecideBody;
