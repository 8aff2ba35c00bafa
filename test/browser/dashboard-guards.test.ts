import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorPage, screenshot, seriousViolations, signUpWithMerchant, startDashboardHarness, type DashboardHarness } from './dashboard-harness.js';

/**
 * Issue 38's evidence on the dashboard: LLM usage shows the guardrail outcomes of the merchant's model
 * calls per API key (blocked, masked, logged by guard) and over time in the operator's time zone, and says
 * "—" / no data, not zeros, before any guard found anything. Two keys make gateway calls with a card number
 * (masked by default), an email address (blocked by the merchant's settings) and a phone number (logged);
 * the numbers on the page are the service's own (GET /analytics/llm/guards). Tests run in order.
 */

/** The little of the DOM that functions run in the page use (this project's types are Node's). */
interface PageGlobals {
  readonly document: { querySelectorAll(selector: string): ArrayLike<unknown> };
}

interface GuardsReport {
  readonly totals: { readonly outcomes: number; readonly blocked: number; readonly masked: number; readonly logged: number };
}

let harness: DashboardHarness;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];
let token = '';
let merchantId = '';
const keys: { keyId: string; apiKey: string }[] = [];

async function call(path: string, init: { method?: string; body?: unknown; apiKey?: string } = {}): Promise<Response> {
  return fetch(`${harness.url}${path}`, {
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...(init.apiKey !== undefined ? { 'x-api-key': init.apiKey } : { authorization: `Bearer ${token}` }) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
}

/** Polls `read` until `done` holds (the analytics sink writes asynchronously); no fixed waits. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the poll's pace, not a wait for the condition
  }
}

function tileValue(label: string): Locator {
  return page
    .locator('.kpi')
    .filter({ has: page.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) }) })
    .locator('.kpi-value');
}

async function openLlmUsage(): Promise<Locator> {
  await page.goto('/dashboard/#/llm-usage');
  // A fresh load, so the page reads the analytics now (going to the hash it is on would keep its last answer).
  await page.reload();
  await page.getByRole('heading', { level: 1 }).waitFor();
  const panel = page.getByTestId('llm-guards');
  await panel.waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.querySelectorAll('.state-loading').length === 0);
  return panel;
}

/** The rows of a table as { header: cell } records (its first page). */
async function tableRows(table: Locator): Promise<Record<string, string>[]> {
  const headers = await table.locator('thead th').allTextContents();
  const rows: Record<string, string>[] = [];
  for (const row of await table.locator('tbody tr').all()) {
    const cells = await row.locator('td').allTextContents();
    rows.push(Object.fromEntries(headers.map((header, index) => [header, cells[index] ?? ''])));
  }
  return rows;
}

beforeAll(async () => {
  harness = await startDashboardHarness();
  // The operator's browser is in New York: the chart must follow the page's picker, not the browser.
  ({ context, page } = await operatorPage(harness, problems));
}, 120_000);

afterAll(async () => {
  await context?.close();
  await harness?.close();
});

describe('guardrail outcomes per key on LLM usage (issue 38)', () => {
  it('signs up and shows "—" and no data before any guard found anything', async () => {
    ({ token, merchantId } = await signUpWithMerchant(page, { email: `guards-${Date.now()}@example.com`, merchantName: 'Guarded Shop' }));

    const panel = await openLlmUsage();
    for (const label of ['Guard outcomes', 'Blocked', 'Masked', 'Logged']) expect(await tileValue(label).textContent(), label).toBe('—');
    expect(await panel.getByRole('table', { name: 'Guard outcomes per API key and guard' }).textContent()).toContain('No guard outcomes in this range.');
    expect(await page.getByTestId('llm-guards-over-time').textContent()).toContain('No data in this range yet.');
  });

  it('shows blocked, masked and logged counts per key and guard once two keys’ calls were guarded', async () => {
    for (const description of ['checkout bot', 'support bot']) {
      const created = await call('/api-key/create', { body: { merchant_id: merchantId, description } });
      expect(created.status).toBe(200);
      const body = (await created.json()) as { key_id: string; api_key: string };
      keys.push({ keyId: body.key_id, apiKey: body.api_key });
    }
    const settings = await call('/guardrails', { method: 'PUT', body: { settings: { email: { action: 'block' }, phone: { action: 'log' } } } });
    expect(settings.status, await settings.text()).toBe(200);
    const chat = (apiKey: string, content: string) =>
      call('/v1/chat/completions', { apiKey, body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content }] } });
    const [checkout, support] = keys as [{ keyId: string; apiKey: string }, { keyId: string; apiKey: string }];
    expect((await chat(checkout.apiKey, 'refund card 4111 1111 1111 1111 and 5555555555554444')).status).toBe(200);
    expect((await chat(checkout.apiKey, 'mail the receipt to buyer@example.com')).status).toBe(400);
    expect((await chat(support.apiKey, 'call me on +1 415 555 0134')).status).toBe(200);
    // The provider never saw the card numbers: the default guard masked them.
    expect(harness.provider.requests.map((request) => request.bodyText).join('\n')).not.toContain('4111 1111 1111 1111');
    await until(
      async () => ((await (await call('/analytics/llm/guards?range=1h', { method: 'GET' })).json()) as GuardsReport).totals,
      (totals) => totals.outcomes === 3,
      'three guard outcomes in analytics',
    );

    const panel = await openLlmUsage();
    expect(await tileValue('Guard outcomes').textContent()).toBe('3');
    expect(await tileValue('Blocked').textContent()).toBe('1');
    expect(await tileValue('Masked').textContent()).toBe('1');
    expect(await tileValue('Logged').textContent()).toBe('1');
    const rows = await tableRows(panel.getByRole('table', { name: 'Guard outcomes per API key and guard' }));
    const pick = (row: Record<string, string>) => [
      row['API key'],
      row['Guard'],
      row['Blocked'],
      row['Masked'],
      row['Logged'],
      row['Values found'],
      row['Calls refused'],
    ];
    expect(rows.map(pick).sort()).toEqual(
      [
        [checkout.keyId, 'card', '0', '1', '0', '2', '0'],
        [checkout.keyId, 'email', '1', '0', '0', '1', '1'],
        [support.keyId, 'phone', '0', '0', '1', '1', '0'],
      ].sort(),
    );
    // Never the matched text.
    const text = (await panel.textContent()) ?? '';
    for (const secret of ['buyer@example.com', '415 555']) expect(text).not.toContain(secret);
    // A group of the card's digits as a whole number (a key id's hex may hold '4111' inside it).
    expect(text).not.toMatch(/\b4111\b/);
    await screenshot(page, 'guards-llm-usage-1280');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('draws the outcomes over time in the zone the operator picks', async () => {
    const chart = page.getByTestId('llm-guards-over-time');
    expect(await chart.textContent()).toContain('Times in UTC');
    await chart.getByRole('button', { name: 'Table' }).click();
    const table = chart.locator('table');
    await table.waitFor();
    expect((await table.locator('thead th').allTextContents())[0]).toBe('Time (UTC)');
    const sums = (rows: Record<string, string>[]) =>
      ['blocked', 'masked', 'logged'].map((series) => rows.reduce((sum, row) => sum + (Number(row[series]) || 0), 0));
    // Every bucket of the hour is listed (those without outcomes as 0); the outcomes add up to the totals.
    expect(sums(await tableRows(table))).toEqual([1, 1, 1]);

    await page.getByLabel('Time zone').selectOption('America/New_York');
    await chart.getByText('Times in America/New_York', { exact: true }).waitFor();
    await chart.getByRole('button', { name: 'Table' }).click();
    await table.waitFor();
    expect((await table.locator('thead th').allTextContents())[0]).toBe('Time (America/New_York)');
    expect(sums(await tableRows(table))).toEqual([1, 1, 1]);
    await page.getByLabel('Time zone').selectOption('UTC');
  });

  it('raised no page errors', () => {
    expect(problems).toEqual([]);
  });
});
