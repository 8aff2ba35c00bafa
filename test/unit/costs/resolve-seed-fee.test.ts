import { describe, expect, it } from 'vitest';
import { costScenarioOf, effectiveCostBps } from '../../../src/costs/cost-scenario.js';
import { defaultSeedCosts } from '../../../src/costs/default-seed-costs.js';
import { resolveSeedEstimate, resolveSeedFee, seedPctBps } from '../../../src/costs/resolve-seed-fee.js';
import { normaliseSeedTable } from '../../../src/costs/seed-cost-table.js';
import type { SeedCostRow } from '../../../src/ports/state/seed-costs.js';

const tier = (pct: number, dimensions: Partial<SeedCostRow>): SeedCostRow => ({
  psp: 'adyen',
  interchangeBps: pct,
  schemeBps: 0,
  markupBps: 0,
  fixed: 0.24,
  isDefault: false,
  ...dimensions,
});
const table: SeedCostRow[] = [
  { psp: 'adyen', interchangeBps: 194, schemeBps: 0, markupBps: 0, fixed: 0.24, isDefault: true },
  tier(194, { cardNetwork: 'visa', cardType: 'standard', transactionCurrency: 'USD' }),
  tier(254, { cardNetwork: 'visa', cardType: 'premium', transactionCurrency: 'USD' }),
  tier(95, { cardNetwork: 'visa', paymentMethodType: 'debit', transactionCurrency: 'USD' }),
  tier(90, { cardNetwork: 'visa', paymentMethodType: 'credit', transactionCurrency: 'EUR' }),
  tier(235, { cardNetwork: 'visa', paymentMethodType: 'credit', cardType: 'commercial', transactionCurrency: 'EUR' }),
  tier(78, { cardIssuingCountry: 'us', cardNetwork: 'visa', paymentMethodType: 'debit' }),
];
const pct = (fields: Parameters<typeof costScenarioOf>[0]) => {
  const fee = resolveSeedFee(table, 'ADYEN', costScenarioOf(fields));
  return fee === undefined ? undefined : seedPctBps(fee);
};

describe('seed fee resolution', () => {
  it('takes the tier matching the most dimensions, else the default row', () => {
    expect(pct({ amount: 100, currency: 'USD', cardNetwork: 'VISA', program: 'premium' })).toBe(254);
    expect(pct({ amount: 100, currency: 'EUR', cardNetwork: 'visa', funding: 'credit', program: 'commercial' })).toBe(235);
    expect(pct({ amount: 100, currency: 'EUR', cardNetwork: 'visa', funding: 'credit', program: 'premium' })).toBe(90);
    expect(pct({ amount: 100, currency: 'USD', cardNetwork: 'rupay' })).toBe(194);
  });

  it('breaks equal counts by the more discriminating dimension (funding over program, issuer over currency)', () => {
    expect(pct({ amount: 100, currency: 'USD', cardNetwork: 'visa', funding: 'debit', program: 'premium' })).toBe(95);
    // A US-issued Visa debit card in USD matches the currency tier and the issuer tier with 3 fields each: issuer wins.
    expect(pct({ amount: 100, currency: 'USD', cardNetwork: 'visa', funding: 'debit', issuerCountry: 'US' })).toBe(78);
  });

  it('matches an issuer tier by the country or its region, and never when the issuer is unknown', () => {
    const regional = [tier(68, { cardIssuingCountry: 'eu' })];
    expect(resolveSeedFee(regional, 'adyen', costScenarioOf({ amount: 1, issuerCountry: 'DE' }))?.interchangeBps).toBe(68);
    expect(resolveSeedFee(regional, 'adyen', costScenarioOf({ amount: 1 }))?.interchangeBps).toBe(0);
  });

  it('names PSPs in any case on either side, and between equal tiers and between default rows takes the later row', () => {
    const rows: SeedCostRow[] = [
      { ...tier(100, {}), psp: 'Stripe', isDefault: true },
      { ...tier(110, {}), psp: 'STRIPE', isDefault: true },
      { ...tier(120, { cardNetwork: 'visa' }), psp: 'stripe' },
      { ...tier(130, { cardNetwork: 'VISA' }), psp: 'Stripe' },
    ];
    for (const name of ['stripe', 'Stripe', 'STRIPE']) {
      expect(resolveSeedFee(rows, name, costScenarioOf({ amount: 1, cardNetwork: 'Visa' }))?.interchangeBps).toBe(130);
      expect(resolveSeedFee(rows, name, costScenarioOf({ amount: 1, cardNetwork: 'amex' }))?.interchangeBps).toBe(110);
    }
  });

  it('gives the same row as the estimate the cost step prices with, shared, and each table its own rows when tables alternate', () => {
    const visaUsd = costScenarioOf({ amount: 100, currency: 'USD', cardNetwork: 'visa', program: 'premium' });
    const other: SeedCostRow[] = [{ psp: 'adyen', interchangeBps: 300, schemeBps: 10, markupBps: 5, fixed: 0.1, isDefault: true }];
    for (let round = 0; round < 3; round += 1) {
      expect(resolveSeedEstimate(table, 'adyen', visaUsd)).toEqual({ fee: { pctBps: 254, fixed: 0.24 }, source: 'seed' });
      expect(resolveSeedEstimate(other, 'adyen', visaUsd)).toEqual({ fee: { pctBps: 315, fixed: 0.1 }, source: 'seed' });
      expect(resolveSeedFee(other, 'adyen', visaUsd)?.interchangeBps).toBe(300);
    }
    expect(resolveSeedEstimate(table, 'adyen', visaUsd)).toBe(resolveSeedEstimate(table, 'ADYEN', visaUsd));
    expect(resolveSeedEstimate(table, 'worldpay', visaUsd)).toBeUndefined();
  });

  it('has no fee for a PSP the table does not list', () => {
    expect(resolveSeedFee(table, 'worldpay', costScenarioOf({ amount: 100 }))).toBeUndefined();
  });

  it('prices the default table as the peer does: stripe 320 bps and adyen US regulated debit 108 bps on 100', () => {
    const stripe = resolveSeedFee(defaultSeedCosts, 'stripe', costScenarioOf({ amount: 100 }));
    expect(effectiveCostBps(seedPctBps(stripe!), stripe!.fixed, 100)).toBeCloseTo(320, 9);
    const adyen = resolveSeedFee(defaultSeedCosts, 'adyen', costScenarioOf({ amount: 100, cardNetwork: 'visa', funding: 'debit', issuerCountry: 'us' }));
    expect(effectiveCostBps(seedPctBps(adyen!), adyen!.fixed, 100)).toBeCloseTo(108, 9);
  });

  it('normalises a saved table: one default row first per PSP, blank dimensions dropped', () => {
    const saved = normaliseSeedTable([
      tier(1, { cardNetwork: ' ', label: 'x' }),
      { ...tier(2, {}), psp: 'stripe', isDefault: true },
      tier(3, { isDefault: true }),
    ]);
    expect(saved.map((row) => [row.psp, row.isDefault, row.interchangeBps, row.cardNetwork])).toEqual([
      ['adyen', true, 3, undefined],
      ['adyen', false, 1, undefined],
      ['stripe', true, 2, undefined],
    ]);
  });
});
