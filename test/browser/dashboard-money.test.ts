import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutopilotCalibratedV1 } from '../../src/generated/schema-types.js';
import {
  operatorPage,
  seriousViolations,
  signUpWithMerchant,
  startDashboardHarness,
  zonedAxisLabel,
  zonedTime,
  type DashboardHarness,
} from './dashboard-harness.js';

/**
 * Honest money on the Costs page (issue 37): savings in the merchant's reporting currency first when
 * one is set (set and cleared from the page, refused in words), the rates' date stated and the
 * currencies without a rate shown apart; and the savings chart follows the time-zone picker like
 * the overview's charts (the window's every bucket, labelled in the chosen zone). The browser runs
 * in New York, so a time shown in the browser's own zone is caught. Tests run in order.
 */

let harness: DashboardHarness;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];
let token: string;
let merchantId: string;

async function api(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${harness.url}${path}`, {
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
}

/** A card payment over stripe and adyen; with no feedback both score alike and stripe heads, so adyen (cheaper) wins on cost. */
async function decide(paymentId: string, amount: number, currency: string, country: string): Promise<void> {
  const response = await api('/decide-gateway', {
    body: {
      merchantId,
      eligibleGatewayList: ['stripe', 'adyen'],
      rankingAlgorithm: 'SR_BASED_ROUTING',
      eliminationEnabled: false,
      paymentInfo: {
        paymentId,
        amount,
        currency,
        country,
        paymentType: 'ORDER_PAYMENT',
        paymentMethodType: 'CARD',
        paymentMethod: 'CREDIT',
        authType: 'THREE_DS',
        cardType: 'CREDIT',
      },
    },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  expect(((await response.json()) as { multi_objective_info: { outcome: string } }).multi_objective_info.outcome).toBe('COST_WON');
}

/** A number as the chart's table writes it (up to 4 decimals, trailing zeros dropped). */
const tableValue = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(4).replace(/0+$/, '').replace(/\.$/, ''));

interface Report {
  start_ms: number;
  end_ms: number;
  bucket_ms: number;
  currency: string | null;
  trend: { bucket_ms: number; saved_value: number }[];
  reporting_currency?: { totals: { saved_value: number; net_value: number } };
}

beforeAll(async () => {
  harness = await startDashboardHarness();
  ({ context, page } = await operatorPage(harness, problems));
  ({ token, merchantId } = await signUpWithMerchant(page, { email: `money-${Date.now()}@example.com`, merchantName: 'Money Shop' }));
}, 180_000);

afterAll(async () => {
  await context?.close();
  await harness?.close();
});

describe('money on the Costs page', () => {
  it('records payments won on cost in three currencies', async () => {
    expect((await api(`/merchant-account/${merchantId}/features/multi-objective-routing`, { body: { enabled: true } })).status).toBe(200);
    const rows = [
      { psp: 'stripe', interchange_bps: 300, scheme_bps: 0, markup_bps: 0, fixed: 0, is_default: true },
      { psp: 'adyen', interchange_bps: 200, scheme_bps: 0, markup_bps: 0, fixed: 0, is_default: true },
    ];
    expect((await api(`/merchant-account/${merchantId}/seed-costs`, { method: 'PUT', body: { rows } })).status).toBe(200);
    // No exploration: a hedged decision skips the EV step (multi_objective_info null), so each of the five is an SR pick.
    const noHedging = { merchant_id: merchantId, config: { type: 'successRate', data: { defaultBucketSize: 10, defaultHedgingPercent: 0 } } };
    expect((await api('/rule/create', { body: noHedging })).status).toBe(200);
    // 1 % of each amount saved: USD 1.00 + 2.50, EUR 0.80 + 0.80, GBP 0.50.
    await decide('usd-1', 100, 'USD', 'US');
    await decide('usd-2', 250, 'USD', 'US');
    await decide('eur-1', 80, 'EUR', 'DE');
    await decide('eur-2', 80, 'EUR', 'DE');
    await decide('gbp-1', 50, 'GBP', 'GB');
    await expect
      .poll(
        async () => {
          const report = (await (await api('/analytics/cost-savings?range=1d', { method: 'GET' })).json()) as {
            available_currencies: { decision_count: number }[];
          };
          return report.available_currencies.reduce((sum, entry) => sum + entry.decision_count, 0);
        },
        { timeout: 60_000 },
      )
      .toBe(5);
  });

  it('sets a reporting currency from the page, refusing a missing or non-positive rate in words, and shows every currency in it first', async () => {
    await page.goto('/dashboard/#/costs');
    const panel = page.getByRole('region', { name: 'Cost savings', exact: true });
    const form = panel.getByTestId('reporting-currency-form');
    await form.getByLabel('Report in (ISO 4217 code)').waitFor();
    expect(await panel.getByTestId('reporting-totals').count()).toBe(0);

    await form.getByLabel('Report in (ISO 4217 code)').fill('USD');
    await form.getByLabel('1 EUR in USD').fill('1.0842');
    await form.getByLabel('EUR rate as of').fill('2026-11-27');
    await form.getByLabel('GBP rate as of').fill('2026-11-27');
    await form.getByRole('button', { name: 'Save reporting currency' }).click();
    await form.getByRole('alert').getByText('rates[1].rate: no rate for GBP: give what 1 GBP is worth in USD, above 0', { exact: true }).waitFor();
    await form.getByLabel('1 GBP in USD').fill('0');
    await form.getByRole('button', { name: 'Save reporting currency' }).click();
    await form.getByRole('alert').getByText('rates[1].rate: the rate for GBP must be above 0 (got 0)', { exact: true }).waitFor();
    expect(await (await api(`/merchant-account/${merchantId}/reporting-currency`, { method: 'GET' })).json()).toEqual({ currency: null, rates: [] });

    // GBP left without a rate: shown apart, unconverted.
    await form.getByLabel('1 GBP in USD').fill('');
    await form.getByLabel('GBP rate as of').fill('');
    await form.getByRole('button', { name: 'Save reporting currency' }).click();
    const totals = panel.getByTestId('reporting-totals');
    await totals.waitFor();
    expect(await (await api(`/merchant-account/${merchantId}/reporting-currency`, { method: 'GET' })).json()).toEqual({
      currency: 'USD',
      rates: [{ currency: 'EUR', rate: 1.0842, as_of: '2026-11-27' }],
    });
    const report = (await (await api('/analytics/cost-savings?range=1d', { method: 'GET' })).json()) as Report;
    const tile = (label: string) =>
      totals
        .locator('.kpi')
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator('.kpi-value');
    // 3.50 USD + 1.60 EUR × 1.0842 (1.73472 → 1.73) = 5.23 USD.
    expect(await tile('Fees saved in USD').textContent()).toBe('5.23 USD');
    expect(report.reporting_currency?.totals.saved_value).toBe(5.23);
    expect(await tile('Saved in USD, net of lost approvals').textContent()).toBe(`${report.reporting_currency!.totals.net_value.toFixed(2)} USD`);
    expect(await totals.getByTestId('reporting-rates').textContent()).toBe('Converted at your rates as of 2026-11-27: 1 EUR = 1.0842 USD (2026-11-27).');
    expect(await totals.getByTestId('reporting-unconverted').textContent()).toMatch(
      /^Not in the totals, no rate to USD: GBP 0\.\d\d net \(0\.50 fees saved\)\. /,
    );
    // The reporting total comes first; the per-currency view and its picker stay below it.
    const text = (await panel.textContent()) ?? '';
    expect(text.indexOf('All currencies in USD')).toBeLessThan(text.indexOf('Saved, net of lost approvals'));
    expect(await panel.getByLabel('Currency').locator('option').allTextContents()).toEqual(['EUR (2 decisions)', 'USD (2 decisions)', 'GBP (1 decisions)']);
    expect(await seriousViolations(page)).toEqual([]);

    await form.getByRole('button', { name: 'Clear reporting currency' }).click();
    await totals.waitFor({ state: 'detached' });
    expect(await (await api(`/merchant-account/${merchantId}/reporting-currency`, { method: 'GET' })).json()).toEqual({ currency: null, rates: [] });
  });

  it('lays the savings chart over every bucket of the window, labelled in the time zone the operator picks, as the autopilot run times are', async () => {
    const answered = page.waitForResponse((response) => response.url().includes('/analytics/cost-savings'));
    await page.reload();
    const report = (await (await answered).json()) as Report;
    const chart = page.getByTestId('cost-savings-chart');
    await chart.getByText('Times in UTC', { exact: true }).waitFor();
    await page.getByLabel('Time zone').selectOption('Asia/Tokyo');
    await chart.getByText('Times in Asia/Tokyo', { exact: true }).waitFor();
    // The page's other table of times follows too.
    await page.getByRole('columnheader', { name: 'Created (Asia/Tokyo)', exact: true }).waitFor();
    await chart.getByRole('button', { name: 'Table' }).click();
    const table = chart.locator('table');
    await table.waitFor();
    expect(await table.locator('thead th').allTextContents()).toEqual(['Time (Asia/Tokyo)', 'net of lost approvals', 'fees saved']);
    const buckets: number[] = [];
    for (let at = Math.floor(report.start_ms / report.bucket_ms) * report.bucket_ms; at <= report.end_ms; at += report.bucket_ms) buckets.push(at);
    expect(await table.locator('tbody tr td:first-child').allTextContents()).toEqual(buckets.map((ms) => zonedAxisLabel(ms, 'Asia/Tokyo')));
    // The hours of the payments carry their savings; the empty hours stay on the axis at 0.
    const saved = new Map(report.trend.map((point) => [point.bucket_ms, point.saved_value]));
    expect(saved.size).toBeGreaterThan(0);
    expect(await table.locator('tbody tr td:nth-child(3)').allTextContents()).toEqual(buckets.map((ms) => tableValue(saved.get(ms) ?? 0)));

    // The other times that were UTC whatever the choice follow it too (the autopilot's runs here).
    const ranAt = Date.UTC(2026, 10, 25, 10, 0, 0);
    const run: AutopilotCalibratedV1 = {
      runId: String(ranAt),
      merchantId,
      ranAt,
      lookbackSeconds: 3600,
      outcome: 'applied',
      reason: null,
      segments: [],
      candidates: [{ name: 'current', estimatedSuccessRate: 0.874, interval: [0.85, 0.898] }],
      chosen: 'current',
      chosenBy: 'formula',
    };
    await harness.server.runtime.state.configs.put(merchantId, 'autopilotRuns', { runs: [run] }, 'upsert');
    await page.goto('/dashboard/#/autopilot');
    const last = page.getByTestId('autopilot-last-run');
    await last.getByText('Ran at (Asia/Tokyo)', { exact: true }).waitFor();
    await last.getByText(zonedTime(ranAt, 'Asia/Tokyo'), { exact: true }).waitFor();

    await page.goto('/dashboard/#/costs');
    await page.getByLabel('Time zone').selectOption('UTC');
    await chart.getByText('Times in UTC', { exact: true }).waitFor();
    expect(problems).toEqual([]);
  });
});
