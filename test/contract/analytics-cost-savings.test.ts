import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSchemas } from '../../api/http-schemas.js';
import { createManualClock } from '../../src/time/clock.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * GET /analytics/cost-savings (docs/cost-routing.md) over the embedded store (chDB, through the real
 * analytics sink), from real /decide-gateway calls with the `multi-objective-routing` flag on and a
 * seed table pricing stripe at 300 bps and adyen at 200 bps: with no feedback both score 1.0, the SR
 * head is the first eligible gateway, and adyen wins on cost whenever stripe heads, saving 1 % of
 * the amount.
 */

const hourMs = 3_600_000;
const firstHour = Date.UTC(2026, 2, 10, 10, 0, 0);
const secondHour = firstHour + hourMs;
const merchantA = 'm-savings-a';
const merchantB = 'm-savings-b';
const merchantIdle = 'm-savings-idle';

const seedTable = {
  rows: [
    { psp: 'stripe', interchange_bps: 300, scheme_bps: 0, markup_bps: 0, fixed: 0, is_default: true },
    { psp: 'adyen', interchange_bps: 200, scheme_bps: 0, markup_bps: 0, fixed: 0, is_default: true },
  ],
};

interface Report {
  merchant_id: string;
  range: string;
  start_ms: number;
  end_ms: number;
  bucket_ms: number;
  currency: string | null;
  available_currencies: { currency: string; decision_count: number }[];
  trend: { bucket_ms: number; saved_value: number; net_value: number }[];
  totals: { saved_value: number; net_value: number; approvals_lost: number; net_known_count: number; cost_won_count: number; total_decisions: number };
}

describe('GET /analytics/cost-savings', () => {
  let t: TestApp;
  let analytics: ChdbAnalyticsUnderTest;
  let keyA: Record<string, string>;
  let keyB: Record<string, string>;
  let keyIdle: Record<string, string>;
  const ajv = new Ajv({ strict: false });
  for (const schema of httpSchemas) ajv.addSchema(schema);
  const validate = ajv.getSchema('CostSavingsReport')!;

  const decide = async (
    headers: Record<string, string>,
    merchantId: string,
    paymentId: string,
    payment: Record<string, unknown>,
    overrides: Record<string, unknown> = {},
  ) => {
    const base = decideBody(merchantId, paymentId);
    const body = { ...base, paymentInfo: { ...(base['paymentInfo'] as Record<string, unknown>), ...payment }, ...overrides };
    const response = await t.app.inject({ method: 'POST', url: '/decide-gateway', headers, payload: body });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { decided_gateway: string; multi_objective_info: { outcome: string } | null };
  };
  const setUp = async (merchantId: string, headers: Record<string, string>) => {
    const flag = await t.app.inject({
      method: 'POST',
      url: `/merchant-account/${merchantId}/features/multi-objective-routing`,
      headers,
      payload: { enabled: true },
    });
    expect(flag.statusCode, flag.body).toBe(200);
    const seeded = await t.app.inject({ method: 'PUT', url: `/merchant-account/${merchantId}/seed-costs`, headers, payload: seedTable });
    expect(seeded.statusCode, seeded.body).toBe(200);
  };
  const get = async (query: string, headers = keyA) => {
    const response = await t.app.inject({ method: 'GET', url: `/analytics/cost-savings${query}`, headers });
    return { status: response.statusCode, text: response.body, body: (response.statusCode === 403 ? {} : response.json()) as Report & { message?: string } };
  };
  const report = async (query: string, headers = keyA): Promise<Report> => {
    const { status, body } = await get(query, headers);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    return body;
  };

  beforeAll(async () => {
    analytics = await openChdbAnalytics('cost-savings');
    t = await createTestApp({ clock: createManualClock(firstHour + 5 * 60_000), analytics: analytics.store });
    await analytics.startSink(t.bus, t.clock);
    keyA = withKey((await createMerchant(t.app, merchantA)).apiKey);
    keyB = withKey((await createMerchant(t.app, merchantB)).apiKey);
    keyIdle = withKey((await createMerchant(t.app, merchantIdle)).apiKey);
    await setUp(merchantA, keyA);
    await setUp(merchantB, keyB);

    // 10:05 — two USD payments won on cost (1.00 and 2.50 saved), two EUR ones (0.80 each).
    expect((await decide(keyA, merchantA, 'usd-1', { amount: 100 })).decided_gateway).toBe('adyen');
    expect((await decide(keyA, merchantA, 'usd-2', { amount: 250, cardSwitchProvider: 'MASTERCARD' })).decided_gateway).toBe('adyen');
    await decide(keyA, merchantA, 'eur-1', { amount: 80, currency: 'EUR', country: 'DE' });
    await decide(keyA, merchantA, 'eur-2', { amount: 80, currency: 'EUR', country: 'DE' });
    // The request switches the step off: no mark, not counted.
    expect((await decide(keyA, merchantA, 'usd-off', { amount: 900 }, { enableMultiObjective: false })).multi_objective_info).toBeNull();
    // Another merchant's saving, never in A's answers.
    await decide(keyB, merchantB, 'b-1', { amount: 1000 });

    // 11:05 — one USD payment won on cost (3.00), one where the SR head is already the cheapest (AUTH_WON).
    t.clock.set(secondHour + 5 * 60_000);
    await decide(keyA, merchantA, 'usd-3', { amount: 300 });
    const kept = await decide(keyA, merchantA, 'usd-auth', { amount: 500 }, { eligibleGatewayList: ['adyen', 'stripe'] });
    expect(kept.multi_objective_info?.outcome).toBe('AUTH_WON');

    t.clock.set(secondHour + 30 * 60_000);
    await t.eventsCaughtUp();
    await analytics.caughtUp();
  }, 90_000);

  afterAll(async () => {
    await analytics?.close(t);
  });

  it('answers the top currency with its totals, per-currency counts and hourly trend over a day', async () => {
    const body = await report('?range=1d');
    expect(body).toMatchObject({
      merchant_id: merchantA,
      range: '1d',
      currency: 'USD',
      available_currencies: [
        { currency: 'USD', decision_count: 3 },
        { currency: 'EUR', decision_count: 2 },
      ],
      totals: { cost_won_count: 3, total_decisions: 4 },
    });
    expect(body.totals.saved_value).toBeCloseTo(6.5, 9);
    expect(body.trend.map((point) => point.bucket_ms)).toEqual([firstHour, secondHour]);
    expect(body.trend[0]!.saved_value).toBeCloseTo(3.5, 9);
    expect(body.trend[1]!.saved_value).toBeCloseTo(3, 9);
    // No feedback yet: every gateway has the same score, so no approval is expected to be lost and the
    // net saving is the fee saved on the approvals expected at that score.
    expect(body.totals).toMatchObject({ approvals_lost: 0, net_known_count: 3 });
    expect(body.totals.net_value).toBeGreaterThan(0);
    expect(body.totals.net_value).toBeLessThanOrEqual(body.totals.saved_value + 1e-9);
  });

  it('reports the requested currency, the list staying whole', async () => {
    const body = await report('?range=1d&currency=EUR');
    expect(body).toMatchObject({ currency: 'EUR', totals: { cost_won_count: 2, total_decisions: 2 } });
    expect(body.available_currencies.map((entry) => entry.currency)).toEqual(['USD', 'EUR']);
    expect(body.totals.saved_value).toBeCloseTo(1.6, 9);
    expect(body.trend).toHaveLength(1);
    expect(body.trend[0]!.bucket_ms).toBe(firstHour);
    expect(body.trend[0]!.saved_value).toBeCloseTo(1.6, 9);

    const none = await report('?range=1d&currency=GBP');
    expect(none).toMatchObject({ currency: 'GBP', trend: [], totals: { saved_value: 0, cost_won_count: 0, total_decisions: 0 } });
  });

  it('narrows totals and trend by the dimension and gateway filters', async () => {
    const visa = await report('?range=1d&card_network=VISA');
    expect(visa).toMatchObject({ currency: 'USD', totals: { cost_won_count: 2, total_decisions: 3 } });
    expect(visa.totals.saved_value).toBeCloseTo(4, 9);
    expect(visa.available_currencies).toEqual([
      { currency: 'USD', decision_count: 3 },
      { currency: 'EUR', decision_count: 2 },
    ]);

    // Every USD decision went to adyen: none to stripe.
    const stripe = await report('?range=1d&gateway=stripe');
    expect(stripe).toMatchObject({ currency: 'USD', trend: [], totals: { saved_value: 0, cost_won_count: 0, total_decisions: 0 } });
  });

  it('takes a custom window from start_ms and end_ms', async () => {
    const body = await report(`?start_ms=${secondHour}&end_ms=${secondHour + hourMs}`);
    expect(body).toMatchObject({
      range: 'custom',
      currency: 'USD',
      available_currencies: [{ currency: 'USD', decision_count: 1 }],
      totals: { cost_won_count: 1, total_decisions: 2 },
    });
    expect(body.totals.saved_value).toBeCloseTo(3, 9);
    // A one-hour span is bucketed by 5 minutes.
    expect(body.trend.map((point) => point.bucket_ms)).toEqual([secondHour + 5 * 60_000]);

    // The default 1h window (10:30–11:30) holds only the 11:05 decisions.
    expect((await report('')).totals).toMatchObject({ cost_won_count: 1, total_decisions: 2 });
  });

  it('answers null currency and zeros for a merchant without cost-aware decisions', async () => {
    const idle = await report('?range=1w', keyIdle);
    // The window a chart lays its buckets over: a week of daily buckets, ending now.
    expect(idle.end_ms - idle.start_ms).toBe(7 * 24 * hourMs);
    expect(idle.bucket_ms).toBe(24 * hourMs);
    expect(idle).toEqual({
      merchant_id: merchantIdle,
      range: '1w',
      start_ms: idle.start_ms,
      end_ms: secondHour + 30 * 60_000,
      bucket_ms: 24 * hourMs,
      currency: null,
      available_currencies: [],
      trend: [],
      totals: { saved_value: 0, net_value: 0, approvals_lost: 0, net_known_count: 0, cost_won_count: 0, total_decisions: 0 },
    });
  });

  it('reads only the credential merchant and refuses a merchant_id naming another with 403', async () => {
    const own = await report('?range=1d', keyB);
    expect(own).toMatchObject({ merchant_id: merchantB, currency: 'USD', available_currencies: [{ currency: 'USD', decision_count: 1 }] });
    expect(own.totals.saved_value).toBeCloseTo(10, 9);

    const other = await get(`?range=1d&merchant_id=${merchantA}`, keyB);
    expect(other.status).toBe(403);
    expect(other.text).toContain(`not '${merchantA}'`);
    const unauthenticated = await t.app.inject({ method: 'GET', url: '/analytics/cost-savings' });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it('refuses malformed parameters with 400 naming each', async () => {
    const cases: [string, string][] = [
      ['?range=2d', 'range: unknown value, expected one of 15m, 1h, 12h, 1d, 1w'],
      ['?start_ms=-5&end_ms=10', 'start_ms: must be >= 0'],
      ['?end_ms=soon', 'end_ms: invalid type, expected integer'],
      ['?page=first', 'page: invalid type, expected integer'],
      ['?currency=USD&currency=EUR', 'currency: invalid type, expected string'],
    ];
    for (const [query, message] of cases) {
      const { status, body } = await get(query);
      expect(status, query).toBe(400);
      expect(body.message, query).toContain(message);
    }
    const tenant = await t.app.inject({ method: 'GET', url: '/analytics/cost-savings', headers: { ...keyA, 'x-tenant-id': 'acme' } });
    expect(tenant.statusCode).toBe(400);
    expect(tenant.json()).toMatchObject({ message: 'Tenant error: Invalid x-tenant-id' });
  });
});
