import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

const fixture = readFileSync(new URL('../fixtures/cost-ingestion/adyen-settlement-report.csv', import.meta.url));
const csv = { 'content-type': 'text/csv' };

interface Ingestion {
  id: string;
  status: string;
  staged_rows: number;
  last_error: string | null;
  currencies: string[];
  countries: string[];
  total_clusters: number;
  good_clusters: number;
  period_start: string | null;
  period_end: string | null;
}

describe('cost ingestion routes', () => {
  let t: TestApp;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    t = await createTestApp({ maxReportBytes: 200_000 });
    key = (await createMerchant(t.app, 'cost-m1')).apiKey;
    otherKey = (await createMerchant(t.app, 'cost-m2')).apiKey;
  }, 60_000);
  afterAll(async () => t.close());

  const upload = (merchant: string, apiKey: string, body: Buffer | string, query = '?account=AcmeUS', connector = 'adyen') =>
    t.app.inject({
      method: 'POST',
      url: `/merchant-account/${merchant}/connectors/${connector}/report${query}`,
      headers: { ...withKey(apiKey), ...csv },
      payload: body,
    });
  const history = async (merchant: string, apiKey: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/merchant-account/${merchant}/cost-ingestions`, headers: withKey(apiKey) });
    expect(response.statusCode).toBe(200);
    return response.json() as Ingestion[];
  };

  it('lists every connector the peer ingests, in id order, with the columns their parsers read', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/cost-ingestion/connectors', headers: withKey(key) });
    expect(response.statusCode).toBe(200);
    const connectors = response.json() as { id: string; columns: { field: string; header: string; required: boolean }[] }[];
    expect(connectors.map((c) => c.id)).toEqual(['adyen', 'braintree', 'chase', 'checkout', 'stripe']);
    const columns = (id: string) => connectors.find((c) => c.id === id)!.columns;
    expect(columns('adyen')).toContainEqual({ field: 'payable', header: 'Payable (SC)', required: true });
    expect(columns('braintree')).toContainEqual({ field: 'commission', header: 'Braintree Total Amount', required: true });
    expect(columns('chase')).toContainEqual({ field: 'gross', header: 'Transaction Amount in Presentment Currency', required: true });
    expect(columns('checkout')).toContainEqual({ field: 'amount', header: 'Holding Currency Amount', required: true });
    expect(columns('checkout')).toContainEqual({ field: 'card_category', header: 'Card Category', required: false });
    expect(columns('stripe')).toContainEqual({ field: 'gross', header: 'Gross Qty', required: true });
  });

  it('answers zeroed coverage and no fees for a merchant without ingestions', async () => {
    const coverage = await t.app.inject({ method: 'GET', url: '/merchant-account/cost-m2/cost-coverage', headers: withKey(otherKey) });
    expect(coverage.statusCode).toBe(200);
    // The peer's fields and types: report_date a string ("" before any ingestion), tiered_* and priced_* present.
    expect(coverage.json()).toEqual({
      total_clusters: 0,
      good_clusters: 0,
      tiered_clusters: 0,
      thin_clusters: 0,
      non_linear_clusters: 0,
      total_txns: 0,
      good_txns: 0,
      tiered_txns: 0,
      thin_txns: 0,
      non_linear_txns: 0,
      good_txn_pct: 0,
      priced_txn_pct: 0,
      total_gross: 0,
      good_gross: 0,
      tiered_gross: 0,
      thin_gross: 0,
      non_linear_gross: 0,
      good_gross_pct: 0,
      priced_gross_pct: 0,
      bps_rmse_p50: 0,
      bps_rmse_p90: 0,
      report_date: '',
    });
    const fees = await t.app.inject({ method: 'GET', url: '/merchant-account/cost-m2/connector-fees', headers: withKey(otherKey) });
    expect(fees.json()).toEqual([]);
  });

  it('ingests a real report in the background, fits it, and a re-upload of the same file is the same ingestion', async () => {
    const accepted = await upload('cost-m1', key, fixture);
    expect(accepted.statusCode).toBe(202);
    const { id, status } = accepted.json() as { id: string; status: string };
    expect(status).toBe('processing');
    await t.costJobs.drain();
    const [record] = await history('cost-m1', key);
    expect(record).toMatchObject({ id, status: 'completed', staged_rows: 300, last_error: null, currencies: ['EUR', 'USD'], countries: ['GB', 'US'] });
    expect(record).toMatchObject({ total_clusters: 2, good_clusters: 2, period_start: '2026-06-01', period_end: '2026-06-30' });
    expect(t.costRows.rows!('cost-m1')).toHaveLength(300);

    const again = await upload('cost-m1', key, fixture);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ id, status: 'completed' });
    await t.costJobs.drain();
    expect(await history('cost-m1', key)).toHaveLength(1);
    expect(t.costRows.rows!('cost-m1')).toHaveLength(300);

    const coverage = (await t.app.inject({ method: 'GET', url: '/merchant-account/cost-m1/cost-coverage', headers: withKey(key) })).json() as Record<
      string,
      number
    >;
    expect(coverage).toMatchObject({ total_clusters: 2, good_clusters: 2, total_txns: 300, good_txn_pct: 100, good_gross_pct: 100 });
    const fees = (await t.app.inject({ method: 'GET', url: '/merchant-account/cost-m1/connector-fees', headers: withKey(key) })).json() as Record<
      string,
      unknown
    >[];
    expect(fees).toHaveLength(1);
    expect(fees[0]).toMatchObject({ connector: 'adyen', account: 'AcmeUS', source: 'model' });
    const model = await t.state.configs.get('cost-m1', 'costModel');
    const visa = model!.clusters.find((c) => c.key === 'adyen|visa|visacredit|credit|us|usd|us consumer credit')!;
    expect(visa.quality).toBe('GOOD');
    expect(visa.model.pctBps).toBeCloseTo(180, 0);
    expect(visa.model.fixed).toBeCloseTo(0.1, 2);

    // The peer's cluster list: most settled volume first, its fields, filters and limit.
    const listed = (query = '') => t.app.inject({ method: 'GET', url: `/merchant-account/cost-m1/cost-clusters${query}`, headers: withKey(key) });
    const clusters = (await listed()).json() as Record<string, unknown>[];
    expect(clusters).toHaveLength(2);
    expect((clusters[0]!['gross_sum'] as number) >= (clusters[1]!['gross_sum'] as number)).toBe(true);
    const visaWire = clusters.find((cluster) => cluster['key'] === visa.key)!;
    expect(visaWire).toEqual({
      key: visa.key,
      connector: 'adyen',
      card_network: 'visa',
      variant: 'visacredit',
      funding: 'credit',
      issuer_country: 'us',
      currency: 'usd',
      ic_category: 'us consumer credit',
      n: visa.n,
      gross_sum: visa.grossSum,
      model_pct_bps: visa.model.pctBps,
      model_fixed: visa.model.fixed,
      override_pct_bps: null,
      override_fixed: null,
      override_updated_at: null,
      effective_pct_bps: visa.model.pctBps,
      effective_fixed: visa.model.fixed,
      source: 'model',
      verdict: 'GOOD',
      card_product: '',
      segments: [],
    });
    expect(((await listed('?card_network=VISA')).json() as unknown[]).map((cluster) => (cluster as { key: string }).key)).toEqual([visa.key]);
    expect((await listed('?limit=1&order=txns')).json()).toHaveLength(1);
    expect((await listed('?connector=stripe')).json()).toEqual([]);
    // The peer clamps the limit to 1..5000 rather than refusing it.
    expect((await listed('?limit=0')).json()).toHaveLength(1);
    expect((await listed('?limit=x')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/merchant-account/cost-m2/cost-clusters', headers: withKey(otherKey) })).json()).toEqual([]);
  });

  it('fails a report with bad rows, naming their lines, and imports none of it', async () => {
    const lines = fixture.toString('utf8').split('\r\n');
    lines[3] = lines[3]!.replace(/,Settled,visacredit,visa,US,USD,[0-9.]+,/, ',Settled,visacredit,visa,US,USD,abc,');
    lines[10] = lines[10]!.replace(',USD,', ',US Dollar,');
    const accepted = await upload('cost-m1', key, lines.join('\r\n'), '?account=AcmeBad');
    expect(accepted.statusCode).toBe(202);
    await t.costJobs.drain();
    const [record] = await history('cost-m1', key);
    expect(record!.status).toBe('failed');
    expect(record!.last_error).toContain('2 invalid rows, nothing imported');
    expect(record!.last_error).toContain("line 4: payable 'abc' is not a number");
    expect(record!.last_error).toContain("line 11: currency 'US Dollar' is not a 3-letter code");
    expect(t.costRows.rows!('cost-m1').filter((row) => row.account === 'AcmeBad')).toHaveLength(0);
  });

  it('fails a report missing required columns, naming them', async () => {
    const accepted = await upload('cost-m1', key, 'Psp Reference,Record Type\r\nx,Settled\r\n', '?account=AcmeCols');
    expect(accepted.statusCode).toBe(202);
    await t.costJobs.drain();
    const [record] = await history('cost-m1', key);
    expect(record).toMatchObject({ status: 'failed' });
    expect(record!.last_error).toContain("line 1: the header lacks required columns 'Payment Method Variant'");
  });

  it('refuses an upload without account, an unknown connector, an empty or oversized body', async () => {
    const noAccount = await upload('cost-m1', key, fixture, '');
    expect(noAccount.statusCode).toBe(400);
    expect(noAccount.body).toContain('account');
    expect((await upload('cost-m1', key, fixture, '?account=A', 'paypal')).statusCode).toBe(404);
    expect((await upload('cost-m1', key, '', '?account=A')).statusCode).toBe(400);
    const big = await upload('cost-m1', key, Buffer.alloc(200_001, 'a'), '?account=A');
    expect(big.statusCode).toBe(413);
    const json = await t.app.inject({
      method: 'POST',
      url: '/merchant-account/cost-m1/connectors/adyen/report?account=A',
      headers: withKey(key),
      payload: { a: 1 },
    });
    expect(json.statusCode).toBe(415);
  });

  it("refuses another merchant's credential on every merchant route", async () => {
    for (const [method, url] of [
      ['POST', '/merchant-account/cost-m1/connectors/adyen/report?account=AcmeUS'],
      ['GET', '/merchant-account/cost-m1/cost-ingestions'],
      ['GET', '/merchant-account/cost-m1/cost-coverage'],
      ['GET', '/merchant-account/cost-m1/cost-clusters'],
      ['GET', '/merchant-account/cost-m1/connector-fees'],
      ['GET', '/merchant-account/cost-m1/connectors/adyen/report/column-mapping?account=AcmeUS'],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: { ...withKey(otherKey), ...csv }, payload: method === 'POST' ? 'a,b\n' : undefined });
      expect(response.statusCode, url).toBe(403);
    }
    const [record] = await history('cost-m1', key);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/merchant-account/cost-m2/cost-ingestions/${record!.id}`, headers: withKey(otherKey) })).statusCode,
    ).toBe(404);
  });

  it('documents the statuses of its routes in the OpenAPI document', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const statuses = (path: string, method: string) => Object.keys(document.paths[path]![method]!.responses);
    expect(statuses('/merchant-account/{merchantId}/connectors/{connector}/report', 'post')).toEqual(
      expect.arrayContaining(['202', '400', '401', '403', '404', '413', '415']),
    );
    expect(statuses('/merchant-account/{merchantId}/cost-ingestions/{ingestionId}', 'delete')).toEqual(expect.arrayContaining(['204', '404', '409']));
    expect(statuses('/merchant-account/{merchantId}/cost-coverage', 'get')).toEqual(expect.arrayContaining(['200', '403']));
  });
});
