import type { ClusterDimensions } from '../../ports/state/cost-ingestions.js';

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
  mapRow(read: FieldReader): RowVerdict;
}

class RowProblem extends Error {}

/** A money cell: blank is 0 (the reports leave fee columns empty when nothing was charged); anything else must be a finite number. */
function money(read: FieldReader, field: string): number {
  const text = read(field).trim();
  if (text === '') return 0;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new RowProblem(`${field} '${text.slice(0, 40)}' is not a number`);
  return value;
}

function required(read: FieldReader, field: string): string {
  const text = read(field).trim();
  if (text === '') throw new RowProblem(`${field} is empty`);
  return text;
}

function currencyOf(text: string): string {
  if (!/^[A-Za-z]{3}$/.test(text)) throw new RowProblem(`currency '${text.slice(0, 40)}' is not a 3-letter code`);
  return text.toLowerCase();
}

function positiveGross(gross: number): number {
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
function interchangeLine(raw: string): { category: string; bps: number | undefined } {
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

function dateOf(text: string): string {
  const day = text.trim().slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : '';
}

function verdict(build: () => SettledFee | undefined): RowVerdict {
  try {
    const fee = build();
    return fee === undefined ? { kind: 'skip' } : { kind: 'fee', fee };
  } catch (error) {
    if (error instanceof RowProblem) return { kind: 'invalid', reason: error.message };
    throw error;
  }
}

/**
 * Adyen's Payments Accounting Report. Only `Settled` journal lines carry fees once per payment
 * (the peer measured `SentForSettle` lines duplicating them byte for byte); every other record type
 * is skipped. gross = payable + all fees; total fee = commission + markup + scheme + interchange.
 */
const adyen: SettlementFormat = {
  connector: 'adyen',
  pull: false,
  columns: [
    { field: 'record_type', header: 'Record Type', required: true },
    { field: 'txn_ref', header: 'Psp Reference', required: true },
    { field: 'variant', header: 'Payment Method Variant', required: true },
    { field: 'card_network', header: 'Global Card Brand', required: true },
    { field: 'issuer_country', header: 'Issuer Country', required: true },
    { field: 'currency', header: 'Settlement Currency', required: true },
    { field: 'payable', header: 'Payable (SC)', required: true },
    { field: 'commission', header: 'Commission (SC)', required: true },
    { field: 'markup', header: 'Markup (SC)', required: true },
    { field: 'scheme_fee', header: 'Scheme Fees (SC)', required: true },
    { field: 'interchange', header: 'Interchange (SC)', required: true },
    { field: 'icsf_details', header: 'ICSF details', required: true },
    { field: 'booking_date', header: 'Booking Date', required: false },
  ],
  mapRow: (read) =>
    verdict(() => {
      if (read('record_type').trim() !== 'Settled') return undefined;
      const commission = money(read, 'commission');
      const markup = money(read, 'markup');
      const schemeFee = money(read, 'scheme_fee');
      const interchange = money(read, 'interchange');
      const totalFee = commission + markup + schemeFee + interchange;
      const gross = positiveGross(money(read, 'payable') + totalFee);
      const variant = read('variant').trim().toLowerCase();
      const ic = interchangeLine(read('icsf_details'));
      return {
        txnRef: required(read, 'txn_ref'),
        dimensions: {
          connector: 'adyen',
          cardNetwork: read('card_network').trim().toLowerCase(),
          variant,
          funding: resolveFunding(variant, ic.bps),
          issuerCountry: read('issuer_country').trim().toLowerCase(),
          currency: currencyOf(required(read, 'currency')),
          icCategory: ic.category,
        },
        txnDate: dateOf(read('booking_date')),
        gross,
        totalFee,
        interchange,
        schemeFee,
        markup,
        commission,
      };
    }),
};

const stripeNetworks: Readonly<Record<string, string>> = {
  mastercard: 'mc',
  'master card': 'mc',
  'american express': 'amex',
  'diners club': 'diners',
};

/**
 * Stripe's Payments Fee Report. Rows are aggregates (a fee line over `Count` payments), not single
 * payments: gross is `Gross Qty`, the fee `Cost Qty`, and the synthetic reference only tells lines
 * apart. Refund lines are skipped. The report has no issuer country or interchange category.
 */
const stripe: SettlementFormat = {
  connector: 'stripe',
  pull: false,
  columns: [
    { field: 'card_network', header: 'Card Brand', required: true },
    { field: 'shopper_interaction', header: 'Shopper Interaction', required: true },
    { field: 'funding', header: 'Funding Source', required: true },
    { field: 'variant', header: 'Payment Method Variant', required: true },
    { field: 'gross', header: 'Gross Qty', required: true },
    { field: 'total_fee', header: 'Cost Qty', required: true },
    { field: 'refund_flag', header: 'Refund Flag', required: true },
    { field: 'currency', header: 'Gross Ccy', required: true },
    { field: 'cost_currency', header: 'Cost Ccy', required: false },
    { field: 'month', header: 'Month', required: false },
    { field: 'fee_name', header: 'Fee Name', required: false },
    { field: 'variable_fee', header: 'Variable Fee', required: false },
    { field: 'fixed_fee', header: 'Fixed Fee', required: false },
  ],
  mapRow: (read) =>
    verdict(() => {
      if (read('refund_flag').trim().toLowerCase() !== 'settle') return undefined;
      const gross = positiveGross(money(read, 'gross'));
      const totalFee = money(read, 'total_fee');
      const brand = read('card_network').trim().toLowerCase();
      const funding = read('funding').trim().toLowerCase();
      const currency = read('currency').trim() !== '' ? read('currency').trim() : read('cost_currency').trim();
      const month = /^(\d{4})\/(\d{1,2})$/.exec(read('month').trim());
      const variant = read('variant').trim().toLowerCase();
      const refParts = ['variant', 'shopper_interaction', 'funding', 'fee_name', 'variable_fee', 'fixed_fee', 'currency', 'month'].map((field) =>
        read(field).trim(),
      );
      return {
        txnRef: `stripe|${refParts.join('\u001f')}`,
        dimensions: {
          connector: 'stripe',
          cardNetwork: stripeNetworks[brand] ?? brand.replaceAll(' ', ''),
          variant,
          funding: ['debit', 'credit', 'prepaid'].includes(funding) ? funding : '',
          issuerCountry: '',
          currency: currencyOf(currency),
          icCategory: '',
        },
        txnDate: month === null ? '' : `${month[1]}-${month[2]!.padStart(2, '0')}-01`,
        gross,
        totalFee,
        interchange: 0,
        schemeFee: 0,
        markup: 0,
        commission: 0,
      };
    }),
};

/** Every connector whose settlement report can be ingested, by id. */
export const settlementFormats: ReadonlyMap<string, SettlementFormat> = new Map([adyen, stripe].map((format) => [format.connector, format]));
