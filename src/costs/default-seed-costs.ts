import type { SeedCostRow, SeedCostTable } from '../ports/state/seed-costs.js';

type Dimensions = Pick<SeedCostRow, 'cardNetwork' | 'paymentMethodType' | 'cardType' | 'transactionCurrency' | 'cardIssuingCountry' | 'label'>;

/** A blended rate (all of it attributed to interchange, as the peer does for a plain `pct_bps`). */
const blended = (psp: string, pctBps: number, fixed: number, dimensions?: Dimensions): SeedCostRow => ({
  psp,
  ...dimensions,
  interchangeBps: pctBps,
  schemeBps: 0,
  markupBps: 0,
  fixed,
  isDefault: dimensions === undefined,
  ...(dimensions === undefined ? { label: 'Default (all other cards)' } : {}),
});

/**
 * The seed table every merchant starts from until it saves its own (`PUT …/seed-costs`); `DELETE`
 * returns to it. A small slice of the peer's development table, fees on a 100-unit ticket:
 *
 * - stripe: blended 2.9 % + 0.30 for every card; international issuers 4.4 % + 0.30.
 * - adyen: interchange++ by scenario: 1.94 % + 0.24 by default (US Visa credit standard); US regulated
 *   debit 0.78 % + 0.30; US credit standard 2.22 %, premium 3.17 %, commercial 3.34 % (+ 0.24); EU/UK
 *   consumer cards 0.68 % (debit) and 0.79 % (credit) + 0.30; Amex 3.3 % + 0.23; international 2.39 % + 0.24.
 * - checkout: 1.00 % interchange + 0.12 % scheme + 0.10 % markup + 0.35.
 *
 * PSPs outside the table have no seed fee: unless cost ingestion priced them, they never win on cost.
 */
export const defaultSeedCosts: SeedCostTable = [
  blended('stripe', 290, 0.3),
  blended('stripe', 440, 0.3, { cardIssuingCountry: 'intl', label: 'International card (cross-border)' }),
  blended('adyen', 194, 0.24),
  blended('adyen', 78, 0.3, { cardIssuingCountry: 'us', cardNetwork: 'visa', paymentMethodType: 'debit', label: 'US Visa regulated debit' }),
  blended('adyen', 78, 0.3, { cardIssuingCountry: 'us', cardNetwork: 'mastercard', paymentMethodType: 'debit', label: 'US Mastercard regulated debit' }),
  blended('adyen', 222, 0.24, { cardIssuingCountry: 'us', paymentMethodType: 'credit', cardType: 'standard', label: 'US credit, standard' }),
  blended('adyen', 317, 0.24, { cardIssuingCountry: 'us', paymentMethodType: 'credit', cardType: 'premium', label: 'US credit, premium' }),
  blended('adyen', 334, 0.24, { cardIssuingCountry: 'us', paymentMethodType: 'credit', cardType: 'commercial', label: 'US credit, commercial' }),
  blended('adyen', 68, 0.3, { cardIssuingCountry: 'eu', paymentMethodType: 'debit', label: 'EU/UK consumer debit' }),
  blended('adyen', 79, 0.3, { cardIssuingCountry: 'eu', paymentMethodType: 'credit', label: 'EU/UK consumer credit' }),
  blended('adyen', 330, 0.23, { cardNetwork: 'amex', label: 'Amex' }),
  blended('adyen', 239, 0.24, { cardIssuingCountry: 'intl', label: 'International card (cross-border)' }),
  { psp: 'checkout', interchangeBps: 100, schemeBps: 12, markupBps: 10, fixed: 0.35, label: 'Default (all other cards)', isDefault: true },
];
