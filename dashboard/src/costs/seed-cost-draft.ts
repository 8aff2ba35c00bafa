import type { SeedCostWireRow } from '../api/server-types';

/** The text fields of one editable seed cost row (inputs hold text; blank dimensions are wildcards). */
export const dimensionFields = ['card_network', 'payment_method_type', 'card_type', 'transaction_currency', 'card_issuing_country'] as const;
export const feeFields = ['interchange_bps', 'scheme_bps', 'markup_bps', 'fixed'] as const;

type DimensionField = (typeof dimensionFields)[number];
type FeeField = (typeof feeFields)[number];

export type DraftRow = { readonly key: number; psp: string; label: string; isDefault: boolean } & Record<DimensionField | FeeField, string>;

export const fieldLabels: Record<DimensionField | FeeField | 'psp' | 'label', string> = {
  psp: 'PSP',
  label: 'Label',
  card_network: 'Network',
  payment_method_type: 'Funding',
  card_type: 'Program',
  transaction_currency: 'Currency',
  card_issuing_country: 'Issuer',
  interchange_bps: 'Interchange (bps)',
  scheme_bps: 'Scheme (bps)',
  markup_bps: 'Markup (bps)',
  fixed: 'Fixed',
};

let nextKey = 1;

export function draftOf(row?: SeedCostWireRow): DraftRow {
  const text = (value: string | number | null | undefined) => (value === null || value === undefined ? '' : String(value));
  return {
    key: nextKey++,
    psp: row?.psp ?? '',
    label: text(row?.label),
    isDefault: row?.is_default ?? false,
    card_network: text(row?.card_network),
    payment_method_type: text(row?.payment_method_type),
    card_type: text(row?.card_type),
    transaction_currency: text(row?.transaction_currency),
    card_issuing_country: text(row?.card_issuing_country),
    interchange_bps: text(row?.interchange_bps ?? 0),
    scheme_bps: text(row?.scheme_bps ?? 0),
    markup_bps: text(row?.markup_bps ?? 0),
    fixed: text(row?.fixed ?? 0),
  };
}

/**
 * The rows to PUT, or the first field that is not a number (named by row and column). Signs and
 * empty PSPs are left to the API, whose message names the row.
 */
export function wireRowsOf(draft: readonly DraftRow[]): { rows: SeedCostWireRow[] } | { error: string } {
  const rows: SeedCostWireRow[] = [];
  for (const [index, row] of draft.entries()) {
    const fees = {} as Record<FeeField, number>;
    for (const field of feeFields) {
      const value = row[field].trim() === '' ? 0 : Number(row[field]);
      if (!Number.isFinite(value)) return { error: `Row ${index + 1}: ${fieldLabels[field]} '${row[field]}' is not a number` };
      fees[field] = value;
    }
    const dimensions = Object.fromEntries(dimensionFields.map((field) => [field, row[field].trim() === '' ? null : row[field].trim()]));
    rows.push({ psp: row.psp.trim(), ...dimensions, ...fees, label: row.label.trim() === '' ? null : row.label.trim(), is_default: row.isDefault });
  }
  return { rows };
}
