import type { ClusterDimensions } from '../../ports/state/cost-ingestions.js';

/*
 * What one settlement-report row becomes (a normalised fee) and the cell readers every connector's
 * format shares (src/costs/ingestion/formats/ and settlement-formats.ts).
 */

/** One column a connector's report parser reads: our canonical field name and the report's own header. */
export interface ReportColumn {
  readonly field: string;
  readonly header: string;
  readonly required: boolean;
}

/** A fee-bearing report line, normalised (the peer's `SettledFeeRow`). */
export interface SettledFee {
  readonly txnRef: string;
  readonly dimensions: ClusterDimensions;
  /** 'YYYY-MM-DD' or ''. */
  readonly txnDate: string;
  /** Gross settled amount: the fit's x. */
  readonly gross: number;
  /** Everything the connector charged for it: the fit's y. */
  readonly totalFee: number;
  readonly interchange: number;
  readonly schemeFee: number;
  readonly markup: number;
  readonly commission: number;
}

/** A data row read by field name ('' for an absent optional column). */
export type FieldReader = (field: string) => string;

export type RowVerdict = { readonly kind: 'fee'; readonly fee: SettledFee } | { readonly kind: 'skip' } | { readonly kind: 'invalid'; readonly reason: string };

/** How one connector's settlement report is read. */
export interface SettlementFormat {
  readonly connector: string;
  /** Whether reports arrive by polling the connector (none yet: uploads only). */
  readonly pull: boolean;
  readonly columns: readonly ReportColumn[];
  /**
   * Records before the header that are framing, not CSV (J.P. Morgan's BEGIN/metadata lines), and
   * the trailer after the rows; dropped wherever they appear.
   */
  readonly isFraming?: (fields: readonly string[]) => boolean;
  /**
   * How the rows are read: one verdict per row (`mapRow`), or, for a report that spreads one
   * payment over many rows (Checkout.com), a fresh {@link RowGrouping} per report.
   */
  readonly rows: { readonly kind: 'per-row'; mapRow(read: FieldReader): RowVerdict } | { readonly kind: 'grouped'; start(): RowGrouping };
}

/**
 * Folds the rows of one report into payments: `add` consumes a row (a `skip` verdict, or `invalid`
 * for a bad one), and `finish`, at the end of the file, answers one verdict per payment with the
 * line of the row that anchors it (its first capture).
 */
export interface RowGrouping {
  add(read: FieldReader, line: number): RowVerdict;
  finish(): readonly { readonly line: number; readonly verdict: RowVerdict }[];
}

/** A cell that makes its row invalid; `verdict` turns it into an `invalid` verdict. */
export class RowProblem extends Error {}

/** A money cell: blank is 0 (the reports leave fee columns empty when nothing was charged); anything else must be a finite number. */
export function money(read: FieldReader, field: string): number {
  const text = read(field).trim();
  if (text === '') return 0;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new RowProblem(`${field} '${text.slice(0, 40)}' is not a number`);
  return value;
}

export function required(read: FieldReader, field: string): string {
  const text = read(field).trim();
  if (text === '') throw new RowProblem(`${field} is empty`);
  return text;
}

export function currencyOf(text: string): string {
  if (!/^[A-Za-z]{3}$/.test(text)) throw new RowProblem(`currency '${text.slice(0, 40)}' is not a 3-letter code`);
  return text.toLowerCase();
}

export function positiveGross(gross: number): number {
  if (!(gross > 0)) throw new RowProblem(`gross amount ${gross} is not positive`);
  return gross;
}

/** The peer's funding rule: the variant's own word, else the EU IFR interchange caps (≤25 bps debit, ≤60 credit, above commercial). */
export function resolveFunding(variant: string, interchangeBps: number | undefined): string {
  const lower = variant.toLowerCase();
  if (lower.includes('debit')) return 'debit';
  if (lower.includes('credit')) return 'credit';
  if (interchangeBps === undefined || !(interchangeBps > 0)) return '';
  if (interchangeBps <= 25) return 'debit';
  if (interchangeBps <= 60) return 'credit';
  return 'commercial';
}

/** The `"t":"ic"` element of Adyen's `ICSF details` JSON: interchange category name and rate; nothing when absent or unparsable. */
export function interchangeLine(raw: string): { category: string; bps: number | undefined } {
  if (raw.trim() === '') return { category: '', bps: undefined };
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return { category: '', bps: undefined };
    const line = parsed.find((item: unknown) => typeof item === 'object' && item !== null && (item as { t?: unknown }).t === 'ic') as
      | { n?: unknown; bps?: unknown }
      | undefined;
    return { category: typeof line?.n === 'string' ? line.n.trim().toLowerCase() : '', bps: typeof line?.bps === 'number' ? line.bps : undefined };
  } catch {
    // Malformed ICSF JSON only costs the interchange category, as in the peer's parser: not a bad row.
    return { category: '', bps: undefined };
  }
}

export function dateOf(text: string): string {
  const day = text.trim().slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : '';
}

export function verdict(build: () => SettledFee | undefined): RowVerdict {
  try {
    const fee = build();
    return fee === undefined ? { kind: 'skip' } : { kind: 'fee', fee };
  } catch (error) {
    if (error instanceof RowProblem) return { kind: 'invalid', reason: error.message };
    throw error;
  }
}

/** A US `M/D/YYYY` (or `M/D/YY`) date cell as 'YYYY-MM-DD'; '' when blank or not a date. */
export function usDateOf(text: string): string {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})$/.exec(text.trim());
  if (match === null) return '';
  const [, month, day, year] = match as unknown as [string, string, string, string];
  const fullYear = year.length === 2 ? `20${year}` : year;
  const iso = `${fullYear}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? '' : iso;
}

/** A card network label as the cost clusters name it (`mc`, `visa`, `amex`, …); '' for a blank one. */
export function cardNetworkOf(label: string): string {
  const lower = label.trim().toLowerCase();
  const known: Readonly<Record<string, string>> = {
    mastercard: 'mc',
    'master card': 'mc',
    'american express': 'amex',
    diners: 'diners',
    'diners club': 'diners',
  };
  return known[lower] ?? lower.replaceAll(' ', '');
}

/** `Credit` / `Debit` as the funding dimension; '' for anything else. */
export function fundingOf(cardType: string): string {
  const lower = cardType.trim().toLowerCase();
  return lower === 'credit' || lower === 'debit' ? lower : '';
}
