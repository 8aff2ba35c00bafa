import { cardNetworkOf, type CardNetwork } from './card-network.js';
import type { NetworkFeeTable } from './network-fee-table.js';

/**
 * `paymentInfo.metadata` (wire shape: CoBadgedMetadata in schemas/) decoded and checked, with the
 * networks read into known names: everything the fee model needs.
 */
export interface CoBadgedCard {
  readonly merchantCategoryCode: string;
  readonly acquirerCountry: string;
  /** In the order the client listed them (the fee sort is stable over it). */
  readonly networks: readonly CardNetwork[];
  readonly issuerCountry: string;
  readonly isRegulated: boolean;
  readonly regulatedName: string | null;
  readonly cardType: 'debit' | 'credit';
}

/** Why the co-badged networks could not be determined. Every one answers CO_BADGED_NETWORK_NOT_FOUND. */
export type CoBadgedProblem = 'missing_metadata' | 'not_json' | 'invalid_field' | 'missing_co_badged_card_data' | 'unknown_network' | 'no_fee_data';

export type CoBadgedParseResult =
  | { readonly ok: true; readonly card: CoBadgedCard }
  | { readonly ok: false; readonly problem: CoBadgedProblem; readonly detail: string };

/**
 * Decodes the JSON string in `paymentInfo.metadata` (§5.1) and checks that every listed network is
 * known and has fee data in `fees`, so ranking cannot meet a network it cannot price.
 * Failures name what is wrong, for the error's developer message.
 *
 * @remarks Upstream falls back to a card-BIN table when `co_badged_card_data` is absent; that table
 * is not part of this service, so the absence is a failure here.
 */
export function parseCoBadgedMetadata(metadata: string | null | undefined, fees: NetworkFeeTable): CoBadgedParseResult {
  if (metadata === null || metadata === undefined || metadata.trim() === '') {
    return fail('missing_metadata', 'paymentInfo.metadata is missing; network routing reads co_badged_card_data from it');
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(metadata);
  } catch (error: unknown) {
    const reason = error instanceof Error ? error.message : String(error);
    return fail('not_json', `paymentInfo.metadata is not valid JSON: ${reason}`);
  }
  if (!isRecord(decoded)) return fail('not_json', 'paymentInfo.metadata must encode a JSON object');

  const cardData = decoded['co_badged_card_data'];
  if (cardData === undefined || cardData === null) {
    return fail('missing_co_badged_card_data', 'paymentInfo.metadata has no co_badged_card_data (card BIN lookup is not available)');
  }
  if (!isRecord(cardData)) return invalid('co_badged_card_data', 'an object');

  const merchantCategoryCode = decoded['merchant_category_code'];
  if (typeof merchantCategoryCode !== 'string') return invalid('merchant_category_code', 'a string');
  const acquirerCountry = decoded['acquirer_country'];
  if (typeof acquirerCountry !== 'string') return invalid('acquirer_country', 'a string');
  const networkNames = cardData['co_badged_card_networks'];
  if (!Array.isArray(networkNames) || networkNames.length === 0) {
    return invalid('co_badged_card_data.co_badged_card_networks', 'a non-empty array');
  }
  const issuerCountry = cardData['issuer_country'];
  if (typeof issuerCountry !== 'string') return invalid('co_badged_card_data.issuer_country', 'a string');
  const isRegulated = cardData['is_regulated'];
  if (typeof isRegulated !== 'boolean') return invalid('co_badged_card_data.is_regulated', 'a boolean');
  const regulatedName = cardData['regulated_name'] ?? null;
  if (regulatedName !== null && typeof regulatedName !== 'string') {
    return invalid('co_badged_card_data.regulated_name', 'a string or null');
  }
  const cardTypeName = cardData['card_type'];
  const cardType = typeof cardTypeName === 'string' ? cardTypeName.toLowerCase() : undefined;
  if (cardType !== 'debit' && cardType !== 'credit') {
    return invalid('co_badged_card_data.card_type', '"debit" or "credit"');
  }

  const networks: CardNetwork[] = [];
  for (const name of networkNames as unknown[]) {
    if (typeof name !== 'string') return invalid('co_badged_card_data.co_badged_card_networks', 'an array of strings');
    const network = cardNetworkOf(name);
    if (network === undefined) return fail('unknown_network', `co_badged_card_networks lists unknown network "${name}"`);
    const missing = missingFeeData(network, isRegulated, merchantCategoryCode, fees);
    if (missing !== undefined) return fail('no_fee_data', missing);
    networks.push(network);
  }

  const card: CoBadgedCard = {
    merchantCategoryCode,
    acquirerCountry,
    networks,
    issuerCountry,
    isRegulated,
    regulatedName,
    cardType,
  };
  return { ok: true, card };
}

function missingFeeData(network: CardNetwork, isRegulated: boolean, merchantCategoryCode: string, fees: NetworkFeeTable): string | undefined {
  if (fees.networkFee[network] === undefined) return `no network fee is configured for ${network}`;
  if (isRegulated) return undefined;
  const byNetwork = Object.hasOwn(fees.nonRegulated, merchantCategoryCode) ? fees.nonRegulated[merchantCategoryCode] : undefined;
  if (byNetwork === undefined) return `no interchange fees are configured for merchant category code "${merchantCategoryCode}"`;
  if (byNetwork[network] === undefined) {
    return `no interchange fee is configured for ${network} under merchant category code "${merchantCategoryCode}"`;
  }
  return undefined;
}

function fail(problem: CoBadgedProblem, detail: string): CoBadgedParseResult {
  return { ok: false, problem, detail };
}

function invalid(field: string, expected: string): CoBadgedParseResult {
  return fail('invalid_field', `paymentInfo.metadata ${field} must be ${expected}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
