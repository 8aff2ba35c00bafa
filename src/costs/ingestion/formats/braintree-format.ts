import { cardNetworkOf, currencyOf, fundingOf, money, positiveGross, required, usDateOf, verdict, type SettlementFormat } from '../settlement-row.js';

/**
 * Braintree's Merchant Financial (PAR) report, as decision-engine's connectors/braintree.rs reads it.
 * Only `sale` rows carry fees (credits and disputes are skipped). The report splits the
 * pass-through from Braintree's take: interchange ← `Interchange Total Amount`, scheme ←
 * `Total Scheme Fees`, commission ← `Braintree Total Amount`, no markup line; the total equals the
 * report's `Total Fee Amount`. `Settlement Amount` is already the gross (the fees' base), so the
 * fee is not added back as for Adyen. Cards cluster as `{network}{funding}` (`mcdebit`), other
 * instruments as the instrument (`paypalaccount`).
 */
export const braintreeFormat: SettlementFormat = {
  connector: 'braintree',
  pull: false,
  columns: [
    { field: 'txn_ref', header: 'Transaction ID', required: true },
    { field: 'transaction_type', header: 'Transaction Type', required: true },
    { field: 'currency', header: 'Settlement Currency', required: true },
    { field: 'gross', header: 'Settlement Amount', required: true },
    { field: 'card_network', header: 'Card Brand', required: true },
    { field: 'card_type', header: 'Card Type', required: true },
    { field: 'instrument', header: 'Payment Instrument', required: true },
    { field: 'interchange', header: 'Interchange Total Amount', required: true },
    { field: 'commission', header: 'Braintree Total Amount', required: true },
    { field: 'scheme_fee', header: 'Total Scheme Fees', required: false },
    { field: 'ic_description', header: 'Interchange Description', required: false },
    { field: 'issuer_country', header: 'Card Issuing Country', required: false },
    { field: 'settlement_date', header: 'Settlement Date', required: false },
    { field: 'payment_network', header: 'Payment Network', required: false },
  ],
  rows: {
    kind: 'per-row',
    mapRow: (read) =>
      verdict(() => {
        if (read('transaction_type').trim().toLowerCase() !== 'sale') return undefined;
        const interchange = money(read, 'interchange');
        const schemeFee = money(read, 'scheme_fee');
        const commission = money(read, 'commission');
        const instrument = read('instrument').trim().toLowerCase();
        // The card brand, else the debit network (pinless debit), else the instrument.
        const network = cardNetworkOf(read('card_network')) || cardNetworkOf(read('payment_network')) || instrument;
        const funding = fundingOf(read('card_type'));
        const cardVariant = `${network}${funding}`;
        return {
          txnRef: required(read, 'txn_ref'),
          dimensions: {
            connector: 'braintree',
            cardNetwork: network,
            variant: instrument.includes('card') && cardVariant !== '' ? cardVariant : instrument.replaceAll('_', ''),
            funding,
            issuerCountry: read('issuer_country').trim().toLowerCase(),
            currency: currencyOf(required(read, 'currency')),
            icCategory: read('ic_description').trim().toLowerCase(),
          },
          txnDate: usDateOf(read('settlement_date')),
          gross: positiveGross(money(read, 'gross')),
          totalFee: interchange + schemeFee + commission,
          interchange,
          schemeFee,
          markup: 0,
          commission,
        };
      }),
  },
};
