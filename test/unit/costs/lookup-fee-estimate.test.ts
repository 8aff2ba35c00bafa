import { describe, expect, it } from 'vitest';
import { costScenarioOf } from '../../../src/costs/cost-scenario.js';
import { lookupFeeEstimate } from '../../../src/costs/lookup-fee-estimate.js';
import type { CostCluster, CostModel } from '../../../src/ports/state/cost-model.js';
import type { SeedCostTable } from '../../../src/ports/state/seed-costs.js';

const cluster = (overrides: Partial<CostCluster>): CostCluster => ({
  key: 'adyen|visa||credit|us|usd|',
  connector: 'adyen',
  cardNetwork: 'visa',
  variant: '',
  funding: 'credit',
  issuerCountry: 'us',
  currency: 'usd',
  icCategory: '',
  n: 1000,
  grossSum: 50_000,
  model: { pctBps: 180, fixed: 0.1 },
  quality: 'GOOD',
  bpsRmse: 2,
  ...overrides,
});
const seed: SeedCostTable = [{ psp: 'adyen', interchangeBps: 200, schemeBps: 10, markupBps: 5, fixed: 0.2, isDefault: true }];
const model = (clusters: CostCluster[], connectorOverride?: boolean): CostModel => ({
  connectors: [
    {
      connector: 'adyen',
      account: 'acct',
      model: { pctBps: 190, fixed: 0.1 },
      goodGross: 50_000,
      ...(connectorOverride ? { override: { pctBps: 170, fixed: 0, updatedAt: 1 } } : {}),
    },
  ],
  clusters,
  reportDate: null,
  updatedAt: 1,
});
const visaCreditUs = costScenarioOf({ amount: 100, currency: 'USD', cardNetwork: 'VISA', funding: 'CREDIT', issuerCountry: 'US' });

describe('fee estimate lookup', () => {
  it('prefers a cluster override, then the connector override, then the learned model, then the seed table', () => {
    const overridden = cluster({ override: { pctBps: 150, fixed: 0.05, updatedAt: 1 } });
    expect(lookupFeeEstimate('Adyen', visaCreditUs, { costModel: model([cluster({}), overridden], true), seedTable: seed })).toEqual({
      fee: { pctBps: 150, fixed: 0.05 },
      source: 'cluster_override',
    });
    expect(lookupFeeEstimate('adyen', visaCreditUs, { costModel: model([cluster({})], true), seedTable: seed })?.source).toBe('connector_override');
    expect(lookupFeeEstimate('adyen', visaCreditUs, { costModel: model([cluster({})]), seedTable: seed })).toEqual({
      fee: { pctBps: 180, fixed: 0.1 },
      source: 'model',
    });
    expect(lookupFeeEstimate('adyen', visaCreditUs, { costModel: undefined, seedTable: seed })).toEqual({ fee: { pctBps: 215, fixed: 0.2 }, source: 'seed' });
  });

  it("uses the connector's blended fee when no GOOD cluster matches the payment", () => {
    const debit = costScenarioOf({ amount: 100, currency: 'USD', cardNetwork: 'visa', funding: 'debit' });
    const found = lookupFeeEstimate('adyen', debit, {
      costModel: model([cluster({}), cluster({ funding: 'debit', quality: 'THIN', model: { pctBps: 1, fixed: 0 } })]),
      seedTable: seed,
    });
    expect(found).toEqual({ fee: { pctBps: 190, fixed: 0.1 }, source: 'model' });
  });

  it('takes the most specific matching cluster', () => {
    const broad = cluster({ issuerCountry: '', model: { pctBps: 200, fixed: 0 } });
    const narrow = cluster({ model: { pctBps: 170, fixed: 0 } });
    expect(lookupFeeEstimate('adyen', visaCreditUs, { costModel: model([broad, narrow]), seedTable: seed })?.fee.pctBps).toBe(170);
  });

  it('has no fee for a PSP neither the model nor the seed table prices', () => {
    expect(lookupFeeEstimate('worldpay', visaCreditUs, { costModel: model([cluster({})]), seedTable: seed })).toBeUndefined();
  });
});
