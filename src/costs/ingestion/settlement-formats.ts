import { braintreeFormat } from './formats/braintree-format.js';
import { chaseFormat } from './formats/chase-format.js';
import { checkoutFormat } from './formats/checkout-format.js';
import { currencyOf, dateOf, interchangeLine, money, positiveGross, required, resolveFunding, verdict, type SettlementFormat } from './settlement-row.js';

export type { FieldReader, ReportColumn, RowGrouping, RowVerdict, SettledFee, SettlementFormat } from './settlement-row.js';

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
  rows: {
    kind: 'per-row',
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
  },
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
  rows: {
    kind: 'per-row',
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
  },
};

/**
 * Every connector whose settlement report can be ingested, by id, in id order (the peer's
 * ConnectorRegistry::with_builtins; GET /cost-ingestion/connectors lists them in this order).
 */
export const settlementFormats: ReadonlyMap<string, SettlementFormat> = new Map(
  [adyen, braintreeFormat, chaseFormat, checkoutFormat, stripe].map((format) => [format.connector, format]),
);
