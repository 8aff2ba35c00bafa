import type { FeeEstimate } from '../ports/state/cost-model.js';
import type { SeedCostRow, SeedCostTable } from '../ports/state/seed-costs.js';
import { type CostScenario, dimensionValue } from './cost-scenario.js';

/** A PSP's seed fee for one scenario: the contract components (bps) and the flat fee. */
export interface SeedFee {
  readonly interchangeBps: number;
  readonly schemeBps: number;
  readonly markupBps: number;
  readonly fixed: number;
}

/** A seed fee as the cost step prices it (lookupFeeEstimate's answer from the seed table): its components summed. */
export interface SeedEstimate {
  readonly fee: FeeEstimate;
  readonly source: 'seed';
}

/** A table row's fee in both forms, built once per row: the components, and the estimate the cost step reads. */
interface PricedRow {
  readonly fee: SeedFee;
  readonly estimate: SeedEstimate;
}

/** The effective percentage of a seed fee: interchange + scheme + markup, in bps. */
export function seedPctBps(fee: SeedFee): number {
  return fee.interchangeBps + fee.schemeBps + fee.markupBps;
}

function pricedRow(fee: SeedFee): PricedRow {
  return { fee, estimate: { fee: { pctBps: seedPctBps(fee), fixed: fee.fixed }, source: 'seed' } };
}

const zeroFee: PricedRow = pricedRow({ interchangeBps: 0, schemeBps: 0, markupBps: 0, fixed: 0 });

/**
 * One dimension of a tier: 0 when unset (a wildcard), 1 when set and equal to the scenario's value
 * (or its second value, e.g. the issuer's region), -1 when set and different.
 */
function matches(tierValue: string | undefined, scenarioValue: string | undefined, orValue?: string): -1 | 0 | 1 {
  const wanted = dimensionValue(tierValue);
  if (wanted === undefined) return 0;
  return scenarioValue === wanted || (orValue !== undefined && orValue === wanted) ? 1 : -1;
}

/**
 * How specifically a tier matches a scenario, or undefined when it does not apply (the peer's rule):
 * every dimension the tier sets must equal the scenario's (case-insensitive; a dimension the scenario
 * does not know never matches a set one). The score is matched-field count · 32 plus a tie-break by
 * the more discriminating dimension: issuer country 16 > currency 8 > network 4 > funding 2 > program 1.
 */
export function tierScore(tier: SeedCostRow, scenario: CostScenario): number | undefined {
  // Field by field, with no array of checks per tier: the decision's cost step scores tiers per candidate.
  const country = matches(tier.cardIssuingCountry, scenario.issuerCountry, scenario.issuerRegion);
  const currency = matches(tier.transactionCurrency, scenario.currency);
  const network = matches(tier.cardNetwork, scenario.cardNetwork);
  const funding = matches(tier.paymentMethodType, scenario.funding);
  const program = matches(tier.cardType, scenario.program);
  if (country < 0 || currency < 0 || network < 0 || funding < 0 || program < 0) return undefined;
  const count = country + currency + network + funding + program;
  return count * 32 + country * 16 + currency * 8 + network * 4 + funding * 2 + program;
}

const pricedRowOf = (row: SeedCostRow): PricedRow =>
  pricedRow({ interchangeBps: row.interchangeBps, schemeBps: row.schemeBps, markupBps: row.markupBps, fixed: row.fixed });

/** One PSP's rows of a table: its tiers in table order and its default row (the last one, as the peer's resolver). */
interface PspRows {
  readonly tiers: { readonly row: SeedCostRow; readonly priced: PricedRow }[];
  defaultRow: PricedRow | undefined;
}

/**
 * Per table (stored and replaced as one document, never edited in place): its rows by lower-cased
 * PSP, with each row's fee and estimate built once. The cost step prices every candidate of every
 * cost-aware decision; scanning the table and building a fee object each time was most of what it
 * allocated.
 */
const rowsByTable = new WeakMap<SeedCostTable, ReadonlyMap<string, PspRows>>();
/**
 * The table asked for last and its rows: a decision prices each of its candidates from one table in
 * a row (and most merchants share the default table), so most asks skip the WeakMap's hash lookup.
 */
let lastTable: SeedCostTable | undefined;
let lastRows: ReadonlyMap<string, PspRows> | undefined;

function rowsOf(table: SeedCostTable): ReadonlyMap<string, PspRows> {
  if (table === lastTable && lastRows !== undefined) return lastRows;
  let byPsp = rowsByTable.get(table);
  if (byPsp === undefined) {
    const rows = new Map<string, PspRows>();
    for (const row of table) {
      const name = row.psp.toLowerCase();
      let psp = rows.get(name);
      if (psp === undefined) {
        psp = { tiers: [], defaultRow: undefined };
        rows.set(name, psp);
      }
      if (row.isDefault) psp.defaultRow = pricedRowOf(row);
      else psp.tiers.push({ row, priced: pricedRowOf(row) });
    }
    rowsByTable.set(table, rows);
    byPsp = rows;
  }
  lastTable = table;
  lastRows = byPsp;
  return byPsp;
}

/** A PSP's rows: by its name as given first, since a gateway is usually named in lower case already (toLowerCase always makes a new string). */
function rowsOfPsp(table: SeedCostTable, psp: string): PspRows | undefined {
  const byPsp = rowsOf(table);
  return byPsp.get(psp) ?? byPsp.get(psp.toLowerCase());
}

/**
 * A PSP's seed fee for a scenario: its most specific matching tier (equal scores: the later row, as
 * the peer's resolver), else its default row, else zero (a PSP listed only by tiers prices other
 * scenarios at zero, as the peer's table does). Undefined when the table does not list the PSP.
 * The fee returned is shared by every caller: read it, never change it.
 */
export function resolveSeedFee(table: SeedCostTable, psp: string, scenario: CostScenario): SeedFee | undefined {
  return resolveSeedRow(table, psp, scenario)?.fee;
}

/** The same fee as the cost step prices it (built with the table's rows, shared: read it, never change it). */
export function resolveSeedEstimate(table: SeedCostTable, psp: string, scenario: CostScenario): SeedEstimate | undefined {
  return resolveSeedRow(table, psp, scenario)?.estimate;
}

function resolveSeedRow(table: SeedCostTable, psp: string, scenario: CostScenario): PricedRow | undefined {
  const rows = rowsOfPsp(table, psp);
  if (rows === undefined) return undefined;
  let best: PricedRow | undefined;
  let bestScore = -1;
  for (const tier of rows.tiers) {
    const score = tierScore(tier.row, scenario);
    if (score !== undefined && score >= bestScore) {
      best = tier.priced;
      bestScore = score;
    }
  }
  return best ?? rows.defaultRow ?? zeroFee;
}
