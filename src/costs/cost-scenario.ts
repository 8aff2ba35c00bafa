/**
 * The payment attributes fees are priced by, lower-cased and trimmed; undefined is unknown.
 *
 * - `funding` is the card's funding type (credit, debit, prepaid …): the peer's seed tiers call it
 *   `payment_method_type`, its fitted clusters `funding`.
 * - `program` is the card program (standard, premium, commercial …): the seed tiers' `card_type`,
 *   the clusters' `variant`.
 * - `issuerCountry` is the issuer's country as sent; `issuerRegion` folds it to `us`, `eu` or `intl`
 *   (the peer's regions), so a tier may name either.
 */
export interface CostScenario {
  readonly amount: number;
  readonly currency?: string;
  readonly cardNetwork?: string;
  readonly funding?: string;
  readonly program?: string;
  readonly issuerCountry?: string;
  readonly issuerRegion?: string;
}

/** EU and UK issuer countries (ISO alpha-2, lower case): the peer's `eu` region. */
const euCountries = new Set([
  'eu',
  'gb',
  'uk',
  'ie',
  'de',
  'fr',
  'es',
  'it',
  'nl',
  'be',
  'pt',
  'at',
  'fi',
  'se',
  'dk',
  'pl',
  'cz',
  'gr',
  'hu',
  'ro',
  'sk',
  'bg',
  'hr',
  'si',
  'ee',
  'lv',
  'lt',
  'lu',
  'mt',
  'cy',
]);

/** `us`, `eu` or `intl` for an issuer country (anything not US or EU/UK is international). */
export function issuerRegionOf(country: string): string {
  const value = country.trim().toLowerCase();
  if (value === 'us' || value === 'usa') return 'us';
  if (value === 'intl') return 'intl';
  return euCountries.has(value) ? 'eu' : 'intl';
}

/** Trimmed and lower-cased; blank or absent is unknown. */
export function dimensionValue(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (value.length > maxRememberedLength) return normalise(value);
  // Payments repeat a handful of currencies, networks and card types, and the cost step reads four
  // of them per cost-aware decision: each is lower-cased once, not into a new string every time.
  let normalised = normalisedValues.get(value);
  if (normalised === undefined) {
    if (normalisedValues.size >= maxRememberedValues) normalisedValues.clear();
    normalised = value.trim().toLowerCase();
    normalisedValues.set(value, normalised);
  }
  return normalised === '' ? undefined : normalised;
}

/** Values as sent → trimmed and lower-cased ('' when blank); starts over when full. */
const normalisedValues = new Map<string, string>();
const maxRememberedValues = 1024;
/** Longer values (no currency, network or card type is) are normalised every time, so the map stays small. */
const maxRememberedLength = 64;

function normalise(value: string): string | undefined {
  const trimmed = value.trim().toLowerCase();
  return trimmed === '' ? undefined : trimmed;
}

/** The fields of a scenario as given (a simulate request, a decision's payment). */
export interface ScenarioFields {
  readonly amount: number;
  readonly currency?: string | null;
  readonly cardNetwork?: string | null;
  readonly funding?: string | null;
  readonly program?: string | null;
  readonly issuerCountry?: string | null;
}

export function costScenarioOf(fields: ScenarioFields): CostScenario {
  const issuerCountry = dimensionValue(fields.issuerCountry);
  // One literal with every key (undefined when unknown), in the order they always had: grown key by
  // key from `{ amount }`, the scenario of every cost-aware decision took a new shape and property
  // store on the way.
  return {
    amount: fields.amount,
    currency: dimensionValue(fields.currency),
    cardNetwork: dimensionValue(fields.cardNetwork),
    funding: dimensionValue(fields.funding),
    program: dimensionValue(fields.program),
    issuerCountry,
    issuerRegion: issuerCountry === undefined ? undefined : issuerRegionOf(issuerCountry),
  };
}

/** Cost of a fee at an amount in bps of the amount: pct + fixed / amount · 10 000 (pct alone at amount 0). */
export function effectiveCostBps(pctBps: number, fixed: number, amount: number): number {
  return amount > 0 ? pctBps + (fixed / amount) * 10_000 : pctBps;
}
