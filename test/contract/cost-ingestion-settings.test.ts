import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CostIngestionRecord } from '../../src/ports/state/cost-ingestions.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

const fixture = readFileSync(new URL('../fixtures/cost-ingestion/adyen-settlement-report.csv', import.meta.url), 'utf8');
/** The same report as the merchant's own export pipeline labels it: two columns renamed. */
const renamed = fixture.replace('Payable (SC)', 'Net Settlement Amount').replace('Settlement Currency', 'Ccy');
const stripeReport = [
  'Card Brand,Shopper Interaction,Regionality,Funding Source,Payment Method Variant,Fee Name,Count,Gross Ccy,Gross Qty,Cost Ccy,Cost Qty,Month,Refund Flag,Fixed Fee,Variable Fee',
  'MasterCard,Ecommerce,DOMESTIC,DEBIT,maestro,Clearing Fee,23155,USD,453160.54,USD,10950.39,2025/01,Settle,0.15,0.0165',
  'visa,Ecommerce,DOMESTIC,CREDIT,visacredit,Clearing Fee,9,USD,497828.26,USD,10753.09,2025/01,Refund,0,0.0216',
].join('\n');

describe('cost ingestion settings routes', () => {
  let t: TestApp;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    t = await createTestApp();
    key = (await createMerchant(t.app, 'costs-a')).apiKey;
    otherKey = (await createMerchant(t.app, 'costs-b')).apiKey;
  }, 60_000);
  afterAll(async () => t.close());

  const mappingUrl = (merchant: string, account = 'AcmeUS', connector = 'adyen') =>
    `/merchant-account/${merchant}/connectors/${connector}/report/column-mapping?account=${account}`;
  const upload = (body: string, account: string, connector = 'adyen') =>
    t.app.inject({
      method: 'POST',
      url: `/merchant-account/costs-a/connectors/${connector}/report?account=${account}`,
      headers: { ...withKey(key), 'content-type': 'text/csv' },
      payload: body,
    });
  const history = async () =>
    (await t.app.inject({ method: 'GET', url: '/merchant-account/costs-a/cost-ingestions', headers: withKey(key) })).json() as Record<string, unknown>[];

  it('applies a saved column mapping to later uploads of that account only', async () => {
    expect((await t.app.inject({ method: 'GET', url: mappingUrl('costs-a'), headers: withKey(key) })).json()).toEqual({ columns: {} });
    const saved = await t.app.inject({
      method: 'PUT',
      url: mappingUrl('costs-a'),
      headers: withKey(key),
      payload: { columns: { payable: 'Net Settlement Amount', 'Settlement Currency': 'Ccy' }, sample: renamed.slice(0, 2_000) },
    });
    expect(saved.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: mappingUrl('costs-a'), headers: withKey(key) })).json()).toEqual({
      columns: { currency: 'Ccy', payable: 'Net Settlement Amount' },
    });
    expect((await upload(renamed, 'AcmeUS')).statusCode).toBe(202);
    expect((await upload(renamed, 'OtherAccount')).statusCode).toBe(202);
    await t.costJobs.drain();
    const [other, mapped] = await history();
    expect(mapped).toMatchObject({ account: 'AcmeUS', status: 'completed', staged_rows: 300 });
    expect(other).toMatchObject({ account: 'OtherAccount', status: 'failed' });
    expect(other!['last_error']).toContain("'Payable (SC)'");

    expect((await t.app.inject({ method: 'DELETE', url: mappingUrl('costs-a'), headers: withKey(key) })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: mappingUrl('costs-a'), headers: withKey(key) })).json()).toEqual({ columns: {} });
  });

  it('refuses mappings naming unknown columns, absent headers or one header twice, and unknown connectors', async () => {
    const put = (payload: Record<string, unknown>, url = mappingUrl('costs-a')) => t.app.inject({ method: 'PUT', url, headers: withKey(key), payload });
    const unknown = await put({ columns: { payble: 'Net' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ message: expect.stringContaining("'payble' is not a column the adyen report parser reads") });
    const absent = await put({ columns: { payable: 'Nope' }, sample: 'Net,Record Type\n' });
    expect(absent.json()).toMatchObject({ message: expect.stringContaining("'payable' is mapped to 'Nope', which is not a column in the sample") });
    const twice = await put({ columns: { commission: 'Fee', markup: 'Fee' } });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ message: expect.stringContaining("'commission' and 'markup' are both mapped to 'Fee'") });
    expect((await put({ columns: {} }, mappingUrl('costs-a', 'A', 'paypal'))).statusCode).toBe(404);
    const noAccount = await t.app.inject({ method: 'GET', url: '/merchant-account/costs-a/connectors/adyen/report/column-mapping', headers: withKey(key) });
    expect(noAccount.statusCode).toBe(400);
  });

  it('reads a Stripe fee report: settle lines only, the network normalised', async () => {
    expect((await upload(stripeReport, 'acct_1', 'stripe')).statusCode).toBe(202);
    await t.costJobs.drain();
    const [record] = await history();
    expect(record).toMatchObject({ connector: 'stripe', status: 'completed', staged_rows: 1, currencies: ['USD'], period_start: '2025-01-01' });
    expect(t.costRows.rows!('costs-a').find((row) => row.connector === 'stripe')).toMatchObject({ cardNetwork: 'mc', funding: 'debit', gross: 453160.54 });
  });

  it('serves a fee override before the fitted fee, and the fitted fee again once it is cleared', async () => {
    const fees = async () =>
      (await t.app.inject({ method: 'GET', url: '/merchant-account/costs-a/connector-fees', headers: withKey(key) })).json() as Record<string, unknown>[];
    const before = (await fees()).find((fee) => fee['connector'] === 'adyen' && fee['account'] === 'AcmeUS')!;
    expect(before).toMatchObject({ source: 'model', override_pct_bps: null });
    const put = await t.app.inject({
      method: 'PUT',
      url: '/merchant-account/costs-a/connectors/adyen/fee-override',
      headers: withKey(key),
      payload: { pct_bps: 175, fixed: 0.1 },
    });
    expect(put.statusCode).toBe(204);
    const overridden = (await fees()).find((fee) => fee['connector'] === 'adyen' && fee['account'] === 'AcmeUS')!;
    expect(overridden).toMatchObject({ source: 'override', effective_pct_bps: 175, effective_fixed: 0.1, model_pct_bps: before['model_pct_bps'] });
    const negative = await t.app.inject({
      method: 'PUT',
      url: '/merchant-account/costs-a/connectors/adyen/fee-override',
      headers: withKey(key),
      payload: { pct_bps: -1, fixed: 0 },
    });
    expect(negative.statusCode).toBeGreaterThanOrEqual(400);
    expect(negative.statusCode).toBeLessThan(500);
    expect((await t.app.inject({ method: 'DELETE', url: '/merchant-account/costs-a/connectors/adyen/fee-override', headers: withKey(key) })).statusCode).toBe(
      204,
    );
    expect((await fees()).find((fee) => fee['connector'] === 'adyen' && fee['account'] === 'AcmeUS')).toMatchObject({
      source: 'model',
      override_pct_bps: null,
    });
  });

  it('deletes a finished ingestion with its rows and model share, refuses one still processing, 404 for unknown', async () => {
    const mapped = (await history()).find((record) => record['account'] === 'AcmeUS')!;
    const id = mapped['id'] as string;
    const deleted = await t.app.inject({ method: 'DELETE', url: `/merchant-account/costs-a/cost-ingestions/${id}`, headers: withKey(key) });
    expect(deleted.statusCode).toBe(204);
    expect((await history()).some((record) => record['id'] === id)).toBe(false);
    expect(t.costRows.rows!('costs-a').filter((row) => row.ingestionId === id)).toHaveLength(0);
    const model = await t.state.configs.get('costs-a', 'costModel');
    expect(model!.clusters.some((cluster) => cluster.connector === 'adyen')).toBe(false);

    const processing: CostIngestionRecord = { ...(await t.state.configs.get('costs-a', 'costIngestions'))![0]!, id: 'ing_processing', status: 'processing' };
    await t.state.configs.put('costs-a', 'costIngestions', [processing, ...((await t.state.configs.get('costs-a', 'costIngestions')) ?? [])], 'upsert');
    const refused = await t.app.inject({ method: 'DELETE', url: '/merchant-account/costs-a/cost-ingestions/ing_processing', headers: withKey(key) });
    expect(refused.statusCode).toBe(409);
    expect((await t.app.inject({ method: 'DELETE', url: '/merchant-account/costs-a/cost-ingestions/ing_none', headers: withKey(key) })).statusCode).toBe(404);
    // Another merchant cannot see or remove it.
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/merchant-account/costs-b/cost-ingestions/ing_processing', headers: withKey(otherKey) })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/merchant-account/costs-a/cost-ingestions/ing_processing', headers: withKey(otherKey) })).statusCode,
    ).toBe(403);
  });
});
