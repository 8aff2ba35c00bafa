import { currencyOf, money, positiveGross, required, usDateOf, verdict, type SettlementFormat } from '../settlement-row.js';

/** Chase `Payment Method Code` (method of payment) → network id. Unknown codes pass through lowercased. */
const networks: Readonly<Record<string, string>> = { VI: 'visa', MC: 'mc', AX: 'amex', DI: 'discover', JC: 'jcb', DC: 'diners' };

/**
 * Interchange programmes whose funding is known (the peer's curated list, connectors/chase.rs
 * `funding_from_ic_code`): the programme is the fee tier, so it wins over `Card Usage Type`, which
 * some exports stamp `1` (debit) on every row.
 */
const creditPrograms = new Set([
  'V148',
  'V105',
  'VBL2',
  'VPDM',
  'V987',
  'VINT',
  'V5FI',
  'MCRW',
  'MX29',
  'MM1',
  'MIP',
  'MIC',
  'MHB2',
  'MHB4',
  'AXSP',
  'DIRW',
  'D460',
  'D361',
  'DDEM',
  'DCEC',
  'DCED',
  'DPEC',
]);
const debitPrograms = new Set(['VSDD', 'VCEB', 'V2DB', 'MDIN']);

function fundingOf(usageType: string, program: string): string {
  const code = program.trim().toUpperCase();
  if (creditPrograms.has(code)) return 'credit';
  if (debitPrograms.has(code)) return 'debit';
  // Card Usage Type: 1 signature debit, 2 PIN debit, 3 credit.
  const usage = usageType.trim();
  return usage === '1' || usage === '2' ? 'debit' : usage === '3' ? 'credit' : '';
}

/**
 * J.P. Morgan Payments' Deposit Details preset report, as decision-engine's connectors/chase.rs
 * reads it. The file is framed (a BOM, `BEGIN,…` and `EntityId=…` lines before the header, an
 * `END,…` line after the rows): those records are dropped. Only `SALE` rows count. Fees are
 * reported negative (deducted) and are negated: interchange ← `Total Interchange Amount`, scheme ←
 * `Total Assessment Amount`, markup ← `Other Debit Passthrough Fees`; Chase's own discount is not in
 * this report (commission 0), a near-constant offset that does not change the PSP ranking. Cards
 * cluster as `{network}{funding}`, wallets as `{network}_applepay` / `{network}_googlepay`; the
 * interchange qualification code is the interchange category.
 *
 * @remarks The peer polls Chase's reporting API for these reports; here they are uploaded, so `pull`
 * is false. The peer's POS/e-commerce channel (from `Terminal Identifier`) has no cluster dimension here.
 */
export const chaseFormat: SettlementFormat = {
  connector: 'chase',
  pull: false,
  columns: [
    { field: 'txn_ref', header: 'Merchant Order Number', required: true },
    { field: 'action', header: 'Action Type Code Text', required: true },
    { field: 'payment_method_code', header: 'Payment Method Code', required: true },
    { field: 'card_usage_type', header: 'Card Usage Type', required: true },
    { field: 'issuer_country', header: 'Country of Issuance', required: true },
    { field: 'currency', header: 'Settlement Currency Code', required: true },
    { field: 'ic_code', header: 'Interchange Qualification Code', required: true },
    { field: 'gross', header: 'Transaction Amount in Presentment Currency', required: true },
    { field: 'interchange', header: 'Total Interchange Amount', required: true },
    { field: 'scheme_fee', header: 'Total Assessment Amount', required: true },
    { field: 'markup', header: 'Other Debit Passthrough Fees', required: false },
    { field: 'wallet', header: 'Digital Wallet Brand', required: false },
    { field: 'submission_date', header: 'Submission Date', required: false },
  ],
  isFraming: (fields) => {
    const first = (fields[0] ?? '').trim();
    return first === 'BEGIN' || first === 'END' || first.startsWith('EntityId=');
  },
  rows: {
    kind: 'per-row',
    mapRow: (read) =>
      verdict(() => {
        if (read('action').trim().toUpperCase() !== 'SALE') return undefined;
        const interchange = -money(read, 'interchange');
        const schemeFee = -money(read, 'scheme_fee');
        const markup = -money(read, 'markup');
        const code = read('payment_method_code').trim().toUpperCase();
        const network = networks[code] ?? code.toLowerCase();
        const funding = fundingOf(read('card_usage_type'), read('ic_code'));
        const wallet = read('wallet').trim().toLowerCase();
        const variant = wallet.includes('apple') ? `${network}_applepay` : wallet.includes('google') ? `${network}_googlepay` : `${network}${funding}`;
        return {
          txnRef: required(read, 'txn_ref'),
          dimensions: {
            connector: 'chase',
            cardNetwork: network,
            variant,
            funding,
            issuerCountry: read('issuer_country').trim().toLowerCase(),
            currency: currencyOf(required(read, 'currency')),
            icCategory: read('ic_code').trim().toLowerCase(),
          },
          txnDate: usDateOf(read('submission_date')),
          gross: positiveGross(money(read, 'gross')),
          totalFee: interchange + schemeFee + markup,
          interchange,
          schemeFee,
          markup,
          commission: 0,
        };
      }),
  },
};
