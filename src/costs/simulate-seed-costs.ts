import type { SeedCostTable } from '../ports/state/seed-costs.js';
import { type CostScenario, effectiveCostBps } from './cost-scenario.js';
import { resolveSeedFee, type SeedFee, seedPctBps } from './resolve-seed-fee.js';

/** One PSP priced for a scenario by the seed table. */
export interface SeedCostQuote extends SeedFee {
  readonly psp: string;
  /** interchange + scheme + markup, bps. */
  readonly effectivePctBps: number;
  /** All-in rate at this amount: pct + fixed / amount · 10 000, bps. */
  readonly effectiveCostBps: number;
  /** What the payment costs at this PSP, in its currency. */
  readonly costAmount: number;
}

/**
 * Prices the named PSPs (every PSP of the table, in table order, when none are named) for one
 * scenario with the same resolver the decision uses. PSPs the table does not list are left out.
 * The amount must be positive (the caller checks).
 */
export function simulateSeedCosts(table: SeedCostTable, scenario: CostScenario, psps: readonly string[]): SeedCostQuote[] {
  const names = psps.length > 0 ? psps : [...new Set(table.map((row) => row.psp))];
  const quotes: SeedCostQuote[] = [];
  for (const psp of names) {
    const fee = resolveSeedFee(table, psp, scenario);
    if (fee === undefined) continue;
    const effectivePctBps = seedPctBps(fee);
    const costBps = effectiveCostBps(effectivePctBps, fee.fixed, scenario.amount);
    quotes.push({ psp, ...fee, effectivePctBps, effectiveCostBps: costBps, costAmount: (costBps / 10_000) * scenario.amount });
  }
  return quotes;
}
