import {
  cardNetworkOf,
  currencyOf,
  dateOf,
  fundingOf,
  money,
  positiveGross,
  type RowGrouping,
  type RowVerdict,
  type SettledFee,
  type SettlementFormat,
  verdict,
} from '../settlement-row.js';

interface Payment {
  /** The line of the payment's first capture row: the stored row's line. */
  line: number;
  captured: boolean;
  gross: number;
  interchange: number;
  schemeFee: number;
  commission: number;
  cardNetwork: string;
  funding: string;
  issuerCountry: string;
  currency: string;
  icCategory: string;
  txnDate: string;
}

const skippedActions = new Set(['refund', 'partial refund', 'void']);
const captureBreakdowns = new Set(['capture', 'partial capture']);

/**
 * Checkout.com's Financial Actions report, as decision-engine's connectors/checkout.rs reads it.
 * One payment spreads over many rows (`Payment ID` × `Action Type` × `Breakdown Type`), so the
 * rows are folded per payment and one fee row per captured payment comes out at the end of the
 * file. Amounts are the holding-currency column (the only additive one); fee rows are negative and
 * negated. Capture rows give the gross and the payment's dimensions; `Interchange *` rows the
 * interchange, `Scheme *` rows the scheme fee, every other breakdown (Premium, Blended,
 * authorisation, authentication, card verification) Checkout's commission; no markup.
 * Refund, partial refund and void actions are skipped; payments never captured (declined,
 * auth-only) have no gross and are left out.
 *
 * Fee completeness, as the peer: interchange is billed when a payment clears, often a day after the
 * capture, so a date-ranged report's edge payments lack it and would read far cheaper. A captured
 * payment without interchange is left out when another captured payment on the same network in
 * this report has interchange (blended pricing and Amex, with none anywhere, are unaffected).
 */
export const checkoutFormat: SettlementFormat = {
  connector: 'checkout',
  pull: false,
  columns: [
    { field: 'txn_ref', header: 'Payment ID', required: true },
    { field: 'action_type', header: 'Action Type', required: true },
    { field: 'breakdown_type', header: 'Breakdown Type', required: true },
    { field: 'currency', header: 'Holding Currency', required: true },
    { field: 'amount', header: 'Holding Currency Amount', required: true },
    { field: 'card_network', header: 'Payment Method', required: true },
    { field: 'card_type', header: 'Card Type', required: true },
    { field: 'issuer_country', header: 'Issuer Country', required: true },
    { field: 'processed_on', header: 'Processed On', required: true },
    { field: 'card_category', header: 'Card Category', required: false },
  ],
  rows: { kind: 'grouped', start: startGrouping },
};

function startGrouping(): RowGrouping {
  const payments = new Map<string, Payment>();
  return {
    add: (read, line) =>
      verdict(() => {
        if (skippedActions.has(read('action_type').trim().toLowerCase())) return undefined;
        const id = read('txn_ref').trim();
        if (id === '') return undefined;
        const amount = money(read, 'amount');
        const breakdown = read('breakdown_type').trim().toLowerCase();
        let payment = payments.get(id);
        if (payment === undefined) {
          payment = {
            line,
            captured: false,
            gross: 0,
            interchange: 0,
            schemeFee: 0,
            commission: 0,
            cardNetwork: '',
            funding: '',
            issuerCountry: '',
            currency: '',
            icCategory: '',
            txnDate: '',
          };
          payments.set(id, payment);
        }
        if (captureBreakdowns.has(breakdown)) {
          // The money-movement line: the gross (partial captures add up) and the payment's dimensions.
          if (!payment.captured) payment.line = line;
          payment.captured = true;
          payment.gross += amount;
          payment.currency = currencyOf(read('currency').trim());
          payment.cardNetwork = cardNetworkOf(read('card_network'));
          payment.funding = fundingOf(read('card_type'));
          payment.issuerCountry = read('issuer_country').trim().toLowerCase();
          payment.icCategory = read('card_category').trim().toLowerCase();
          payment.txnDate = dateOf(read('processed_on'));
        } else if (breakdown.startsWith('interchange')) payment.interchange -= amount;
        else if (breakdown.startsWith('scheme ')) payment.schemeFee -= amount;
        else payment.commission -= amount;
        return undefined;
      }),
    finish: () => {
      const interchangeNetworks = new Set(
        [...payments.values()].filter((p) => p.captured && p.interchange > 0 && p.cardNetwork !== '').map((p) => p.cardNetwork),
      );
      const out: { line: number; verdict: RowVerdict }[] = [];
      for (const [id, payment] of payments) {
        if (!payment.captured) continue;
        if (payment.interchange <= 0 && interchangeNetworks.has(payment.cardNetwork)) continue;
        out.push({ line: payment.line, verdict: verdict(() => feeOf(id, payment)) });
      }
      return out;
    },
  };
}

function feeOf(id: string, payment: Payment): SettledFee {
  return {
    txnRef: id,
    dimensions: {
      connector: 'checkout',
      cardNetwork: payment.cardNetwork,
      variant: `${payment.cardNetwork}${payment.funding}`,
      funding: payment.funding,
      issuerCountry: payment.issuerCountry,
      currency: payment.currency,
      icCategory: payment.icCategory,
    },
    txnDate: payment.txnDate,
    gross: positiveGross(payment.gross),
    totalFee: payment.interchange + payment.schemeFee + payment.commission,
    interchange: payment.interchange,
    schemeFee: payment.schemeFee,
    markup: 0,
    commission: payment.commission,
  };
}
