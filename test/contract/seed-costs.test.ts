import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createKeyFor, createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

const row = (overrides: Record<string, unknown> = {}) => ({ psp: 'adyen', interchange_bps: 150, scheme_bps: 12, markup_bps: 10, fixed: 0.2, ...overrides });

describe('seed cost routes', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let m1: string;
  let merchants = 0;
  // One app for the file (building one is the slow part); each test gets merchants of its own.
  // Building the app is slow on a loaded machine: more than the default hook timeout.
  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(async () => t.close());
  beforeEach(async () => {
    merchants += 1;
    m1 = `m${merchants}a`;
    headers = withKey((await createMerchant(t.app, m1)).apiKey);
  }, 60_000);

  it('answers the default table until the merchant saves one', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/merchant-account/${m1}/seed-costs`, headers });
    expect(response.statusCode).toBe(200);
    const rows = response.json() as { psp: string; is_default: boolean; effective_pct_bps: number; fixed: number; card_network: string | null }[];
    expect([...new Set(rows.map((entry) => entry.psp))]).toEqual(['stripe', 'adyen', 'checkout']);
    expect(rows[0]).toEqual({
      psp: 'stripe',
      card_network: null,
      payment_method_type: null,
      card_type: null,
      transaction_currency: null,
      card_issuing_country: null,
      interchange_bps: 290,
      scheme_bps: 0,
      markup_bps: 0,
      fixed: 0.3,
      label: 'Default (all other cards)',
      example_amount: null,
      is_default: true,
      effective_pct_bps: 290,
    });
    expect(rows.find((entry) => entry.psp === 'checkout')?.effective_pct_bps).toBe(122);
  });

  it('replaces the table, synthesising a zeroed default row for a PSP given only tiers, and reads it back', async () => {
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/merchant-account/${m1}/seed-costs`,
      headers,
      payload: { rows: [row({ card_network: 'Visa', card_type: '  ', label: 'Visa' }), row({ psp: 'stripe', is_default: true, interchange_bps: 280 })] },
    });
    expect(saved.statusCode).toBe(200);
    const rows = saved.json() as Record<string, unknown>[];
    expect(rows.map((entry) => [entry['psp'], entry['is_default'], entry['card_network'], entry['card_type'], entry['effective_pct_bps']])).toEqual([
      ['adyen', true, null, null, 0],
      ['adyen', false, 'Visa', null, 172],
      ['stripe', true, null, null, 302],
    ]);
    expect((await t.app.inject({ method: 'GET', url: `/merchant-account/${m1}/seed-costs`, headers })).json()).toEqual(rows);
    expect(await t.state.configs.get(m1, 'seedCosts')).toHaveLength(3);
  });

  it('resets to the default table on DELETE', async () => {
    await t.app.inject({ method: 'PUT', url: `/merchant-account/${m1}/seed-costs`, headers, payload: { rows: [row({ is_default: true })] } });
    const reset = await t.app.inject({ method: 'DELETE', url: `/merchant-account/${m1}/seed-costs`, headers });
    expect(reset.statusCode).toBe(200);
    expect((reset.json() as { psp: string }[])[0]?.psp).toBe('stripe');
    expect(await t.state.configs.get(m1, 'seedCosts')).toBeUndefined();
  });

  it('refuses a row without a PSP or with a negative fee with 400, saving nothing', async () => {
    for (const [bad, message] of [
      [row({ psp: ' ' }), 'rows[0]: each row must name a PSP'],
      [row({ markup_bps: -1 }), 'rows[0].markup_bps: fee components and fixed fee must be finite and non-negative'],
      [row({ fixed: -0.01 }), 'rows[0].fixed: fee components and fixed fee must be finite and non-negative'],
    ] as const) {
      const response = await t.app.inject({ method: 'PUT', url: `/merchant-account/${m1}/seed-costs`, headers, payload: { rows: [bad] } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 'TE_03', message, data: null });
    }
    const shape = await t.app.inject({ method: 'PUT', url: `/merchant-account/${m1}/seed-costs`, headers, payload: { rows: [{ psp: 'adyen' }] } });
    expect(shape.statusCode).toBe(422);
    expect(shape.body).toContain('interchange_bps');
    expect(await t.state.configs.get(m1, 'seedCosts')).toBeUndefined();
  });

  it('prices a scenario per PSP with the most specific tier', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/merchant-account/${m1}/seed-costs/simulate`,
      headers,
      payload: {
        amount: 100,
        transaction_currency: 'USD',
        card_network: 'VISA',
        payment_method_type: 'debit',
        card_issuing_country: 'US',
        psps: ['adyen', 'stripe', 'unknown'],
      },
    });
    expect(response.statusCode).toBe(200);
    const [adyen, stripe, ...rest] = response.json() as Record<string, number | string>[];
    expect(rest).toEqual([]);
    // Adyen: US regulated Visa debit 0.78 % + 0.30 → 108 bps, 1.08 on 100. Stripe: blended 2.9 % + 0.30 → 320 bps.
    expect(adyen).toMatchObject({ psp: 'adyen', interchange_bps: 78, effective_pct_bps: 78, fixed: 0.3 });
    expect(adyen?.['effective_cost_bps']).toBeCloseTo(108, 9);
    expect(adyen?.['cost_amount']).toBeCloseTo(1.08, 9);
    expect(stripe?.['effective_cost_bps']).toBeCloseTo(320, 9);
    const all = await t.app.inject({ method: 'POST', url: `/merchant-account/${m1}/seed-costs/simulate`, headers, payload: { amount: 50 } });
    expect((all.json() as { psp: string }[]).map((quote) => quote.psp)).toEqual(['stripe', 'adyen', 'checkout']);
  });

  it('refuses a non-positive amount with 400', async () => {
    for (const amount of [0, -5]) {
      const response = await t.app.inject({ method: 'POST', url: `/merchant-account/${m1}/seed-costs/simulate`, headers, payload: { amount } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 'TE_03', message: 'amount must be a positive number', data: null });
    }
    expect((await t.app.inject({ method: 'POST', url: `/merchant-account/${m1}/seed-costs/simulate`, headers, payload: {} })).statusCode).toBe(422);
  });

  it("refuses another merchant's table with 403 and answers 404 for a merchant that no longer exists", async () => {
    const other = withKey((await createMerchant(t.app, `${m1}-other`)).apiKey);
    expect((await t.app.inject({ method: 'GET', url: `/merchant-account/${m1}/seed-costs`, headers: other })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: `/merchant-account/${m1}/seed-costs`, headers: other, payload: { rows: [row()] } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/merchant-account/${m1}/seed-costs`, headers: other })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: `/merchant-account/${m1}/seed-costs/simulate`, headers: other, payload: { amount: 1 } })).statusCode,
    ).toBe(403);
    expect(await t.state.configs.get(m1, 'seedCosts')).toBeUndefined();
    const ghost = withKey(await createKeyFor(t.state, `${m1}-ghost`));
    for (const [method, url, payload] of [
      ['GET', `/merchant-account/${m1}-ghost/seed-costs`, undefined],
      ['PUT', `/merchant-account/${m1}-ghost/seed-costs`, { rows: [row()] }],
      ['DELETE', `/merchant-account/${m1}-ghost/seed-costs`, undefined],
      ['POST', `/merchant-account/${m1}-ghost/seed-costs/simulate`, { amount: 1 }],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: ghost, ...(payload === undefined ? {} : { payload }) });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 'TE_04', message: 'MerchantId not found', data: null });
    }
  });
});
