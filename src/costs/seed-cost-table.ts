import type { SeedCostRow, SeedCostTable } from '../ports/state/seed-costs.js';
import { defaultSeedCosts } from './default-seed-costs.js';

/** Why a table cannot be saved (the caller's mistake), or undefined when every row is valid. */
export function seedTableProblem(rows: SeedCostTable): string | undefined {
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index] as SeedCostRow;
    if (row.psp.trim() === '') return `rows[${index}]: each row must name a PSP`;
    for (const [name, value] of [
      ['interchange_bps', row.interchangeBps],
      ['scheme_bps', row.schemeBps],
      ['markup_bps', row.markupBps],
      ['fixed', row.fixed],
    ] as const) {
      if (!Number.isFinite(value) || value < 0) return `rows[${index}].${name}: fee components and fixed fee must be finite and non-negative`;
    }
  }
  return undefined;
}

const dimensionKeys = ['cardNetwork', 'paymentMethodType', 'cardType', 'transactionCurrency', 'cardIssuingCountry'] as const;

/** A row with blank dimensions dropped (blank is a wildcard, not a value) and its PSP trimmed. */
function normalisedRow(row: SeedCostRow): SeedCostRow {
  const out: { -readonly [K in keyof SeedCostRow]: SeedCostRow[K] } = { ...row, psp: row.psp.trim() };
  for (const key of dimensionKeys) {
    const value = row[key]?.trim();
    if (value === undefined || value === '' || row.isDefault) delete out[key];
    else out[key] = value;
  }
  return out;
}

/**
 * The table as stored and answered: PSPs in first-seen order, each with one default row first (its
 * last default row given, else a zeroed one, as the peer synthesises) and then its tiers in the order
 * given. A default row carries no dimensions.
 */
export function normaliseSeedTable(rows: SeedCostTable): SeedCostTable {
  const byPsp = new Map<string, { fallback?: SeedCostRow; tiers: SeedCostRow[] }>();
  for (const given of rows) {
    const row = normalisedRow(given);
    const entry = byPsp.get(row.psp) ?? { tiers: [] };
    if (row.isDefault) entry.fallback = row;
    else entry.tiers.push(row);
    byPsp.set(row.psp, entry);
  }
  const out: SeedCostRow[] = [];
  for (const [psp, entry] of byPsp) {
    out.push(
      entry.fallback ?? { psp, interchangeBps: 0, schemeBps: 0, markupBps: 0, fixed: 0, label: 'Default (all other cards)', isDefault: true },
      ...entry.tiers,
    );
  }
  return out;
}

/** The table in effect: the merchant's saved one when it has rows, else the default table. */
export function effectiveSeedTable(saved: SeedCostTable | undefined): SeedCostTable {
  return saved !== undefined && saved.length > 0 ? saved : defaultSeedCosts;
}
