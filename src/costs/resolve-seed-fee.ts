import type { SeedCostRow, SeedCostTable } from '../ports/state/seed-costs.js';
import { type CostScenario, dimensionValue } from './cost-scenario.js';

/** A PSP's seed fee for one scenario: the contract components (bps) and the flat fee. */
export interface SeedFee {
  readonly interchangeBps: number;
  readonly schemeBps: number;
  readonly markupBps: number;
  readonly fixed: number;
}

/** The effective percentage of a seed fee: interchange + scheme + markup, in bps. */
export function seedPctBps(fee: SeedFee): number {
  return fee.interchangeBps + fee.schemeBps + fee.markupBps;
}

const zeroFee: SeedFee = { interchangeBps: 0, schemeBps: 0, markupBps: 0, fixed: 0 };

/** One dimension of a tier: unset is a wildcard; set, it must equal one of the scenario's values. */
function matches(tierValue: string | undefined, ...scenarioValues: (string | undefined)[]): boolean | undefined {
  const wanted = dimensionValue(tierValue);
  if (wanted === undefined) return undefined;
  return scenarioValues.some((value) => value === wanted);
}

/**
 * How specifically a tier matches a scenario, or undefined when it does not apply (the peer's rule):
 * every dimension the tier sets must equal the scenario's (case-insensitive; a dimension the scenario
 * does not know never matches a set one). The score is matched-field count · 32 plus a tie-break by
 * the more discriminating dimension: issuer country 16 > currency 8 > network 4 > funding 2 > program 1.
 */
export function tierScore(tier: SeedCostRow, scenario: CostScenario): number | undefined {
  const checks: readonly [boolean | undefined, number][] = [
    [matches(tier.cardIssuingCountry, scenario.issuerCountry, scenario.issuerRegion), 16],
    [matches(tier.transactionCurrency, scenario.currency), 8],
    [matches(tier.cardNetwork, scenario.cardNetwork), 4],
    [matches(tier.paymentMethodType, scenario.funding), 2],
    [matches(tier.cardType, scenario.program), 1],
  ];
  let count = 0;
  let tieBreak = 0;
  for (const [matched, weight] of checks) {
    if (matched === false) return undefined;
    if (matched === true) {
      count += 1;
      tieBreak += weight;
    }
  }
  return count * 32 + tieBreak;
}

const feeOf = (row: SeedCostRow): SeedFee => ({
  interchangeBps: row.interchangeBps,
  schemeBps: row.schemeBps,
  markupBps: row.markupBps,
  fixed: row.fixed,
});

/** Whether the table has rows for this PSP (names compared case-insensitively). */
export function seedTableHasPsp(table: SeedCostTable, psp: string): boolean {
  const name = psp.toLowerCase();
  return table.some((row) => row.psp.toLowerCase() === name);
}

/**
 * A PSP's seed fee for a scenario: its most specific matching tier (equal scores: the later row, as
 * the peer's resolver), else its default row, else zero (a PSP listed only by tiers prices other
 * scenarios at zero, as the peer's table does). Undefined when the table does not list the PSP.
 */
export function resolveSeedFee(table: SeedCostTable, psp: string, scenario: CostScenario): SeedFee | undefined {
  const name = psp.toLowerCase();
  let listed = false;
  let fallback: SeedCostRow | undefined;
  let best: { score: number; row: SeedCostRow } | undefined;
  for (const row of table) {
    if (row.psp.toLowerCase() !== name) continue;
    listed = true;
    if (row.isDefault) {
      fallback = row;
      continue;
    }
    const score = tierScore(row, scenario);
    if (score !== undefined && (best === undefined || score >= best.score)) best = { score, row };
  }
  if (!listed) return undefined;
  if (best !== undefined) return feeOf(best.row);
  return fallback === undefined ? zeroFee : feeOf(fallback);
}
