import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSchemas } from '../../api/http-schemas.js';
import { createManualClock } from '../../src/time/clock.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * The merchant's reporting currency (PUT/GET/DELETE /merchant-account/{id}/reporting-currency) and
 * the `reporting_currency` block it adds to GET /analytics/cost-savings, over the embedded analytics
 * store fed by real /decide-gateway calls (multi-objective routing on, stripe priced at 300 bps and
 * adyen at 200 bps: adyen wins on cost whenever stripe heads, saving 1 % of the amount).
 */

const hour = Date.UTC(2026, 2, 10, 10, 0, 0);
const merchant = 'm-reporting-a';
const other = 'm-reporting-b';
const seedTable = {
  rows: [
    { psp: 'stripe', interchange_bps: 300, scheme_bps: 0, markup_bps: 0, fixed: 0, is_default: true },
    { psp: 'adyen', interchange_bps: 200, scheme_bps: 0, markup_bps: 0, fixed: 0, is_default: true },
  ],
};
const eurRate = { currency: 'EUR', rate: 1.0842, as_of: '2026-03-09' };

interface Line {
  currency: string;
  rate: number;
  as_of: string | null;
  saved_value: number;
  net_value: number;
  saved_value_converted: number;
  net_value_converted: number;
  cost_won_count: number;
}
interface Block {
  currency: string;
  rates_as_of: string | null;
  totals: { saved_value: number; net_value: number; approvals_lost: number; cost_won_count: number; total_decisions: number };
  converted: Line[];
  unconverted: { currency: string; saved_value: number; net_value: number; approvals_lost: number; cost_won_count: number }[];
}

/** Half away from zero to cents, computed in integers as the service must (never a float sum of floats). */
const cents = (value: number) => Math.sign(value) * Math.round(Math.abs(Number(value.toPrecision(15))) * 100);

describe('reporting currency', () => {
  let t: TestApp;
  let analytics: ChdbAnalyticsUnderTest;
  let key: Record<string, string>;
  let otherKey: Record<string, string>;
  const ajv = new Ajv({ strict: false });
  for (const schema of httpSchemas) ajv.addSchema(schema);
  const validReport = ajv.getSchema('CostSavingsReport')!;
  const validSetting = ajv.getSchema('ReportingCurrencySetting')!;

  const setting = async (method: 'GET' | 'PUT' | 'DELETE', payload?: Record<string, unknown>, headers = key, id = merchant) => {
    const response = await t.app.inject({ method, url: `/merchant-account/${id}/reporting-currency`, headers, ...(payload !== undefined ? { payload } : {}) });
    // A guard refusal (403) answers text.
    return { status: response.statusCode, body: (response.statusCode === 403 ? { text: response.body } : response.json()) as Record<string, unknown> };
  };
  const savings = async (query = '?range=1d') => {
    const response = await t.app.inject({ method: 'GET', url: `/analytics/cost-savings${query}`, headers: key });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { currency: string; totals: { saved_value: number }; reporting_currency?: Block };
    expect(validReport(body), JSON.stringify(validReport.errors)).toBe(true);
    return body;
  };
  const decide = async (paymentId: string, payment: Record<string, unknown>) => {
    const base = decideBody(merchant, paymentId);
    const body = { ...base, paymentInfo: { ...(base['paymentInfo'] as Record<string, unknown>), ...payment } };
    const response = await t.app.inject({ method: 'POST', url: '/decide-gateway', headers: key, payload: body });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as { multi_objective_info: { outcome: string } }).multi_objective_info.outcome).toBe('COST_WON');
  };

  beforeAll(async () => {
    analytics = await openChdbAnalytics('reporting-currency');
    t = await createTestApp({ clock: createManualClock(hour + 5 * 60_000), analytics: analytics.store });
    await analytics.startSink(t.bus, t.clock);
    key = withKey((await createMerchant(t.app, merchant)).apiKey);
    otherKey = withKey((await createMerchant(t.app, other)).apiKey);
    const flag = await t.app.inject({
      method: 'POST',
      url: `/merchant-account/${merchant}/features/multi-objective-routing`,
      headers: key,
      payload: { enabled: true },
    });
    expect(flag.statusCode, flag.body).toBe(200);
    const seeded = await t.app.inject({ method: 'PUT', url: `/merchant-account/${merchant}/seed-costs`, headers: key, payload: seedTable });
    expect(seeded.statusCode, seeded.body).toBe(200);
    // Saved: USD 1.00 + 2.50, EUR 0.80 + 0.80, GBP 0.50.
    await decide('usd-1', { amount: 100 });
    await decide('usd-2', { amount: 250 });
    await decide('eur-1', { amount: 80, currency: 'EUR', country: 'DE' });
    await decide('eur-2', { amount: 80, currency: 'EUR', country: 'DE' });
    await decide('gbp-1', { amount: 50, currency: 'GBP', country: 'GB' });
    t.clock.set(hour + 30 * 60_000);
    await t.eventsCaughtUp();
    await analytics.caughtUp();
  }, 90_000);

  afterAll(async () => {
    await analytics?.close(t);
  });

  it('reads as none until set, and cost savings carry no reporting block then', async () => {
    const read = await setting('GET');
    expect(read).toEqual({ status: 200, body: { currency: null, rates: [] } });
    expect(validSetting(read.body)).toBe(true);
    expect(await savings()).not.toHaveProperty('reporting_currency');
  });

  it('refuses bad settings in words, saving nothing', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ currency: 'DOLLARS', rates: [] }, 400, "currency: 'DOLLARS' is not an ISO 4217 currency code"],
      [{ currency: 'USD', rates: [{ currency: 'EUX', rate: 1, as_of: '2026-03-09' }] }, 400, "rates[0].currency: 'EUX' is not an ISO 4217 currency code"],
      [{ currency: 'USD', rates: [{ currency: 'EUR', as_of: '2026-03-09' }] }, 400, 'rates[0].rate: no rate for EUR: give what 1 EUR is worth in USD, above 0'],
      [{ currency: 'USD', rates: [{ ...eurRate, rate: 0 }] }, 400, 'rates[0].rate: the rate for EUR must be above 0 (got 0)'],
      [{ currency: 'USD', rates: [{ ...eurRate, rate: -1.08 }] }, 400, 'rates[0].rate: the rate for EUR must be above 0 (got -1.08)'],
      [{ currency: 'USD', rates: [{ ...eurRate, as_of: 'yesterday' }] }, 400, "rates[0].as_of: 'yesterday' is not a date (YYYY-MM-DD)"],
      [
        { currency: 'USD', rates: [{ ...eurRate, rate: 'one' }] },
        422,
        'Failed to deserialize the JSON body into the target type: rates.0.rate: invalid type, expected number',
      ],
    ];
    for (const [payload, status, message] of cases) {
      const refused = await setting('PUT', payload);
      expect(refused, JSON.stringify(payload)).toEqual({ status, body: { code: 'TE_03', message, data: null } });
    }
    expect((await setting('GET')).body).toEqual({ currency: null, rates: [] });
  });

  it('stores the currency and its rates, upper-cased, and answers them as stored', async () => {
    const saved = await setting('PUT', { currency: 'usd', rates: [{ ...eurRate, currency: 'eur' }] });
    expect(saved).toEqual({ status: 200, body: { currency: 'USD', rates: [eurRate] } });
    expect(validSetting(saved.body)).toBe(true);
    expect((await setting('GET')).body).toEqual({ currency: 'USD', rates: [eurRate] });
    // Another merchant's key can neither read nor change it.
    expect((await setting('GET', undefined, otherKey)).status).toBe(403);
    expect((await setting('DELETE', undefined, otherKey)).status).toBe(403);
    expect((await setting('GET', undefined, otherKey, other)).body).toEqual({ currency: null, rates: [] });
  });

  it('converts every currency to the reporting currency at its rate, lists the one without a rate apart, and totals the rounded lines exactly', async () => {
    const report = await savings();
    // The per-currency view is unchanged beside the block (EUR and USD tie on decisions: the first by code).
    expect(report.currency).toBe('EUR');
    const block = report.reporting_currency!;
    expect(block).toMatchObject({ currency: 'USD', rates_as_of: '2026-03-09' });
    expect(block.converted.map(({ currency, rate, as_of, cost_won_count }) => ({ currency, rate, as_of, cost_won_count }))).toEqual([
      { currency: 'USD', rate: 1, as_of: null, cost_won_count: 2 },
      { currency: 'EUR', rate: 1.0842, as_of: '2026-03-09', cost_won_count: 2 },
    ]);
    const [usd, eur] = block.converted as [Line, Line];
    expect(usd.saved_value).toBeCloseTo(3.5, 9);
    expect(eur.saved_value).toBeCloseTo(1.6, 9);
    // 1.60 × 1.0842 = 1.73472 → 1.73; 3.50 + 1.73 = 5.23 exactly.
    expect(eur.saved_value_converted).toBe(1.73);
    expect(usd.saved_value_converted).toBe(3.5);
    expect(block.totals.saved_value).toBe(5.23);
    expect(cents(eur.net_value_converted)).toBe(cents(Number((eur.net_value * 1.0842).toFixed(10))));
    expect(block.totals.net_value * 100).toBeCloseTo(cents(usd.net_value_converted) + cents(eur.net_value_converted), 6);
    expect(block.totals).toMatchObject({ cost_won_count: 4, total_decisions: 4 });
    expect(block.unconverted).toHaveLength(1);
    expect(block.unconverted[0]).toMatchObject({ currency: 'GBP', cost_won_count: 1 });
    expect(block.unconverted[0]!.saved_value).toBeCloseTo(0.5, 9);
  });

  it('keeps the block whole whatever currency the per-currency view shows', async () => {
    const report = await savings('?range=1d&currency=USD');
    expect(report.currency).toBe('USD');
    expect(report.totals.saved_value).toBeCloseTo(3.5, 9);
    expect(report.reporting_currency?.totals.saved_value).toBe(5.23);
  });

  it('clears the setting, and cost savings go back to per currency only', async () => {
    expect(await setting('DELETE')).toEqual({ status: 200, body: { currency: null, rates: [] } });
    expect((await setting('GET')).body).toEqual({ currency: null, rates: [] });
    expect(await savings()).not.toHaveProperty('reporting_currency');
  });

  it('is documented in the OpenAPI document: three operations, the body, the answers and the cost-savings block', async () => {
    type Operation = { tags?: string[]; requestBody?: unknown; responses?: Record<string, unknown> };
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const path = spec.paths['/merchant-account/{merchantId}/reporting-currency'];
    expect(Object.keys(path ?? {}).sort()).toEqual(['delete', 'get', 'put']);
    for (const method of ['get', 'put', 'delete']) {
      expect(path?.[method]?.tags, method).toEqual(['Merchant Account']);
      expect(Object.keys(path?.[method]?.responses ?? {}), method).toEqual(expect.arrayContaining(['200', '400', '403']));
    }
    expect(JSON.stringify(path?.['put']?.requestBody)).toContain('ReportingCurrencySetting');
    expect(spec.components.schemas['CostSavingsReport']?.properties).toHaveProperty('reporting_currency');
  });
});
