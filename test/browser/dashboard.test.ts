import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutopilotCalibratedV1 } from '../../src/generated/schema-types.js';
import { operatorPassword, screenshot, seriousViolations, startDashboardHarness, streamedDeltas, type DashboardHarness } from './dashboard-harness.js';

/** Every page of the navigation (dashboard/src/routes.ts). */
const dashboardPages = [
  'overview',
  'audit',
  'explorer',
  'routing',
  'costs',
  'autopilot',
  'experiments',
  'volume-commitments',
  'models',
  'route-groups',
  'playground',
  'batches',
  'llm-usage',
  'keys',
  'new-merchant',
] as const;

/**
 * The operator dashboard end to end: the real service (embedded mode) serving the built dashboard,
 * driven in chromium. Tests run in order and share one operator and merchant.
 */

/** The little of the DOM that functions run in the page use (this project's types are Node's, without the DOM). */
interface PageGlobals {
  readonly document: {
    querySelector(selector: string): { readonly textContent: string | null } | null;
    readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number };
  };
}

let harness: DashboardHarness;
let context: BrowserContext;
let page: Page;
let problems: string[];
const email = `operator-${Date.now()}@example.com`;

async function sessionToken(): Promise<{ token: string; merchantId: string }> {
  const stored = await page.evaluate(() => sessionStorage.getItem('switchyard.session'));
  const session = JSON.parse(stored ?? '{}') as { token: string; merchantId: string };
  return { token: session.token, merchantId: session.merchantId };
}

async function api(path: string, init: { method?: string; body?: unknown; token?: string; apiKey?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token !== undefined) headers['authorization'] = `Bearer ${init.token}`;
  if (init.apiKey !== undefined) headers['x-api-key'] = init.apiKey;
  return fetch(`${harness.url}${path}`, { method: init.method ?? 'POST', headers, ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) });
}

function decideBody(merchantId: string, paymentId: string, gateways: readonly string[] = ['stripe', 'adyen']) {
  return {
    merchantId,
    eligibleGatewayList: gateways,
    rankingAlgorithm: 'SR_BASED_ROUTING',
    eliminationEnabled: false,
    paymentInfo: {
      paymentId,
      amount: 100,
      currency: 'USD',
      country: 'US',
      paymentType: 'ORDER_PAYMENT',
      paymentMethodType: 'CARD',
      paymentMethod: 'CREDIT',
      authType: 'THREE_DS',
      cardType: 'CREDIT',
    },
  };
}

/**
 * Reads `path` (an /analytics/* read, as the signed-in operator) until its answer mentions `text`:
 * the analytics sink has written what the page is opened on next, so the page shows it on its
 * first load instead of at its next 5 s live poll (the overview test covers the live poll).
 */
async function untilAnalyticsMention(path: string, text: string): Promise<void> {
  const { token } = await sessionToken();
  await expect.poll(async () => (await (await api(path, { method: 'GET', token })).text()).includes(text), { timeout: 60_000 }).toBe(true);
}

async function go(path: string): Promise<void> {
  await page.goto(`/dashboard/#/${path}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
}

beforeAll(async () => {
  harness = await startDashboardHarness();
  ({ context, page, problems } = await harness.newPage(1280, 900));
});

afterAll(async () => {
  await context?.close();
  await harness?.close();
});

describe('the dashboard', () => {
  it('serves its files with a strict CSP, hashed assets immutable and index.html revalidated', async () => {
    const index = await fetch(`${harness.url}/dashboard/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const csp = index.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe');
    const html = await index.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const asset = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const script = await fetch(`${harness.url}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const again = await fetch(`${harness.url}/dashboard/`, { headers: { 'if-none-match': index.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
    expect((await fetch(`${harness.url}/dashboard/assets/missing.js`)).status).toBe(404);
  });

  it('signs up, onboards a merchant, signs out and signs in again', async () => {
    await page.goto('/dashboard/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in-1280');
    await page.getByRole('button', { name: 'Create one' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(operatorPassword);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Create your merchant' }).waitFor();
    await page.getByLabel('Merchant name').fill('Browser Shop');
    await page.getByRole('button', { name: 'Create merchant' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not-the-password-at-all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /invalid|incorrect/i })
      .waitFor();
    await page.getByLabel('Password').fill(operatorPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    expect((await sessionToken()).merchantId).toMatch(/^merchant_/);
  });

  it('creates a key shown once, lists it by prefix and revokes it after confirmation', async () => {
    await go('keys');
    await page.getByText('No keys yet').waitFor();
    await page.getByLabel('Description').fill('checkout service');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByTestId('new-key').locator('code');
    const rawKey = (await shown.textContent()) ?? '';
    expect(rawKey).toMatch(/^DE_[0-9a-f]{64}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(rawKey);
    const { merchantId } = await sessionToken();
    expect((await api('/decide-gateway', { apiKey: rawKey, body: decideBody(merchantId, 'key-check-1') })).status).toBe(200);
    const row = page.getByRole('row').filter({ hasText: 'checkout service' });
    await row.getByText('Active').waitFor();
    expect(await row.textContent()).toContain(rawKey.slice(0, 11));
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.getByText(rawKey).count()).toBe(0);
    await screenshot(page, 'api-keys-1280');
    expect(await seriousViolations(page)).toEqual([]);
    await row.getByRole('button', { name: /Revoke/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText('Revoked').waitFor();
    const refused = await api('/decide-gateway', { apiKey: rawKey, body: decideBody(merchantId, 'key-check-2') });
    expect(refused.status).toBe(401);
  });

  it('charts decisions from real traffic on the overview, live, with a table view', async () => {
    const { token, merchantId } = await sessionToken();
    await go('overview');
    for (let index = 0; index < 6; index += 1) {
      const paymentId = `overview-pay-${index}`;
      expect((await api('/decide-gateway', { token, body: decideBody(merchantId, paymentId) })).status).toBe(200);
      const feedback = await api('/update-gateway-score', {
        token,
        body: { merchantId, gateway: 'stripe', paymentId, status: index % 3 === 0 ? 'FAILURE' : 'CHARGED' },
      });
      expect(feedback.status).toBe(200);
    }
    // The page polls every 5 s: it picks the traffic up on its own (one decision came from the key test).
    const decisions = page
      .locator('.kpi')
      .filter({ hasText: /^Decisions/ })
      .locator('.kpi-value');
    await page.waitForFunction((element) => Number(element?.textContent ?? '0') >= 7, await decisions.elementHandle(), { timeout: 60_000 });
    const panel = page.getByTestId('decisions-chart');
    await panel.locator('canvas').waitFor();
    await panel.getByRole('button', { name: 'Table' }).click();
    const cells = await panel.locator('tbody td.numeric').allTextContents();
    expect(cells.map(Number).reduce((sum, value) => sum + value, 0)).toBeGreaterThanOrEqual(7);
    await screenshot(page, 'overview-1280');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('finds a payment by id and shows its decision and feedback on a timeline', async () => {
    await go('audit');
    await page.getByLabel('Payment id').fill('overview-pay-0');
    await page.getByRole('button', { name: 'Search' }).click();
    const timeline = page.getByTestId('audit-timeline');
    await timeline.getByText('Decision', { exact: true }).first().waitFor();
    await timeline.getByText('Feedback', { exact: true }).first().waitFor({ timeout: 30_000 });
    expect(await timeline.textContent()).toContain('overview-pay-0');
    await screenshot(page, 'audit-1280');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('builds a rule, shows the API validation message, previews, activates it, and a decision follows it', async () => {
    await go('routing');
    await page.getByText('No rules yet').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Uneven split');
    await page.getByLabel('Algorithm').selectOption('volume_split');
    await page.locator('#split-s0-gw').fill('stripe');
    await page.locator('#split-s1-gw').fill('adyen');
    await page.locator('#split-s1-pct').fill('40');
    await page.getByRole('button', { name: 'Create rule (inactive)' }).click();
    await page.getByRole('alert').filter({ hasText: 'volume split percentages add up to 90, expected 100' }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('Big amounts');
    await page.getByLabel('Algorithm').selectOption('advanced');
    await page.locator('#rule0-name').fill('Amount over 500');
    await page.locator('#rule0-priority').fill('checkout, adyen');
    await page.locator('#rule0-g0-c0-key').selectOption('amount');
    await page.locator('#rule0-g0-c0-comparison').selectOption('greater_than');
    await page.locator('#rule0-g0-c0-value').fill('500');
    await page.getByRole('button', { name: 'Add nested group (OR)' }).click();
    await page.locator('#rule0-g0-n0-c0-key').selectOption('amount');
    await page.locator('#rule0-g0-n0-c0-comparison').selectOption('less_than');
    await page.locator('#rule0-g0-n0-c0-value').fill('100000');
    await page.getByLabel('Default gateways when no rule applies (comma-separated, in order)').fill('stripe');
    await page.getByRole('button', { name: 'Create rule (inactive)' }).click();

    const preview = page.getByTestId('preview-panel');
    await preview.getByRole('heading', { name: /Big amounts/ }).waitFor();
    await preview.getByLabel('Value').fill('1000');
    await preview.getByRole('button', { name: 'Evaluate' }).click();
    expect(await preview.getByTestId('preview-output').textContent()).toBe('checkout, adyen');
    await screenshot(page, 'routing-1280');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Bucket size (outcomes)').fill('200');
    // No volume hedging (default 5 %, random): the explorer's decision below must follow the rule's order.
    await page.getByLabel('Hedging (%)').fill('0');
    await page.getByRole('button', { name: 'Save success-rate configuration' }).click();
    await page.getByLabel('Threshold (0 to 1)').fill('1.5');
    await page.getByRole('button', { name: 'Save elimination threshold' }).click();
    await page.getByRole('alert').filter({ hasText: 'threshold' }).waitFor();
    await page.getByLabel('Threshold (0 to 1)').fill('0.3');
    await page.getByRole('button', { name: 'Save elimination threshold' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).nth(1).waitFor();
    const debit = page.getByLabel('Network (debit) routing enabled');
    await debit.click();
    const { token, merchantId } = await sessionToken();
    const stored = await api('/rule/get', { token, body: { merchant_id: merchantId, algorithm: 'elimination' } });
    expect(((await stored.json()) as { config: { data: { threshold: number } } }).config.data.threshold).toBe(0.3);
    await page.waitForFunction(
      async ([url, bearer]) => {
        const answer = await fetch(url!, { headers: { authorization: `Bearer ${bearer}` } });
        return ((await answer.json()) as { debit_routing_enabled: boolean }).debit_routing_enabled;
      },
      [`/merchant-account/${merchantId}/debit-routing`, token] as const,
    );

    const row = page.getByRole('row').filter({ hasText: 'Big amounts' });
    await row.getByRole('button', { name: 'Activate Big amounts' }).click();
    await page.getByRole('dialog', { name: 'Activate Big amounts?' }).getByRole('button', { name: 'Activate Big amounts' }).click();
    await row.getByText('Active', { exact: true }).waitFor();

    await go('explorer');
    await page.getByLabel('Amount').fill('1000');
    await page.getByLabel('Eligible gateways (comma-separated)').fill('stripe, adyen, checkout');
    await page.getByRole('button', { name: 'Decide' }).click();
    const result = page.getByTestId('decision-result');
    expect(await result.getByTestId('decided-gateway').textContent()).toBe('checkout');
    expect(await result.textContent()).toContain('“Amount over 500” → checkout, adyen');
    await screenshot(page, 'explorer-1280');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('filters the model registry by capability and price', async () => {
    await go('models');
    const heading = page.getByRole('heading', { name: /of \d+ models/ });
    await heading.waitFor();
    const everything = Number(/(\d+) of/.exec((await heading.textContent()) ?? '')?.[1]);
    await page.getByLabel('Capability').selectOption('vision');
    await page.getByLabel('Max average price (USD / 1K tokens)').fill('0.001');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForFunction((total) => {
      const text = (globalThis as unknown as PageGlobals).document.querySelector('#models-title')?.textContent ?? '';
      const shown = Number(/(\d+) of/.exec(text)?.[1] ?? 'NaN');
      return shown > 0 && shown < total;
    }, everything);
    const capabilities = await page.locator('tbody tr td:nth-child(4)').allTextContents();
    expect(capabilities.every((cell) => cell.includes('vision'))).toBe(true);
  });

  it('streams a completion in the playground, and LLM usage charts the call', async () => {
    await go('playground');
    await page.getByLabel('Model (provider/model, a registry name or a route group)').fill('openai/gpt-4o-mini');
    await page.getByRole('textbox', { name: 'Prompt', exact: true }).fill('What does Switchyard do?');
    await page.getByRole('button', { name: 'Stream' }).click();
    await page.getByText('Complete.').waitFor();
    expect(await page.getByTestId('stream-output').textContent()).toBe(streamedDeltas.join(''));
    expect(await page.getByTestId('stream-model').textContent()).toContain('gpt-4o-mini');
    // Through the OpenAI-compatible gateway: its decision headers are shown.
    expect(await page.getByTestId('stream-routing').textContent()).toContain('explicit');
    const upstream = harness.provider.requests.at(-1)?.body as { stream?: boolean; messages: { content: unknown }[] };
    expect(upstream.stream).toBe(true);
    expect(JSON.stringify(upstream.messages)).toContain('What does Switchyard do?');

    await untilAnalyticsMention('/analytics/llm/usage?range=1h', 'gpt-4o-mini');
    await go('llm-usage');
    const calls = page
      .locator('.kpi')
      .filter({ hasText: /^Calls/ })
      .locator('.kpi-value');
    await page.waitForFunction((element) => Number(element?.textContent ?? '0') >= 1, await calls.elementHandle(), { timeout: 60_000 });
    const panel = page.getByTestId('llm-calls-by-model');
    await panel.getByRole('button', { name: 'Table' }).click();
    await panel.getByRole('columnheader', { name: 'openai/gpt-4o-mini' }).waitFor();
    // The provider read 6 of each call's 9 prompt tokens from its cache: the prompt-caching panel says so.
    const caching = page.getByRole('table', { name: 'Prompt caching per API key and model' });
    const row = caching.getByRole('row').filter({ hasText: 'openai/gpt-4o-mini' }).first();
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toContain('66.67%');
  });

  it('lists the spend of each end user a call named on LLM usage', async () => {
    const { token } = await sessionToken();
    const completion = await api('/v1/chat/completions', {
      token,
      body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }], user: 'shopper-7' },
    });
    expect(completion.status).toBe(200);
    await untilAnalyticsMention('/analytics/llm/end-users?range=1h', 'shopper-7');
    // LLM usage is still open from the test before: load it afresh.
    await go('llm-usage');
    await page.reload();
    const table = page.getByRole('table', { name: 'Spend per end user and API key' });
    const row = table.getByRole('row').filter({ hasText: 'shopper-7' });
    await row.waitFor({ timeout: 60_000 });
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[1]).toBe('(no key)');
    expect(Number(cells[2])).toBeGreaterThanOrEqual(1);
  });

  it('creates a route group and shows its candidates learning from gateway calls', async () => {
    await go('route-groups');
    await page.getByText('No route groups yet').waitFor();
    await page.getByLabel('Name').fill('smart');
    await page.getByLabel('Candidates, provider/model, one per line').fill('openai/gpt-4o-mini\nopenai/gpt-4o');
    await page.getByRole('button', { name: 'Save route group' }).click();
    const group = page.getByRole('region', { name: 'Candidates of smart' });
    await group.getByText('no outcomes yet').first().waitFor();
    const { token } = await sessionToken();
    const completion = await api('/v1/chat/completions', { token, body: { model: 'smart', messages: [{ role: 'user', content: 'hello' }] } });
    expect(completion.status).toBe(200);
    await untilAnalyticsMention('/analytics/llm/route-groups?range=1h', '"smart"');
    // The page was open since before the call: read it afresh.
    await page.reload();
    await group.getByRole('cell', { name: '100.00%' }).first().waitFor({ timeout: 30_000 });
    // The share over time comes from the analytics store once the sink has written the call.
    const share = page.getByTestId('group-share-smart');
    await share.locator('canvas').waitFor({ timeout: 30_000 });
    await share.getByRole('button', { name: 'Table' }).click();
    expect(await share.locator('tbody td.numeric').allTextContents()).toContain('100');
  });

  it('submits a batch and follows its progress to the results', async () => {
    await go('batches');
    await page.getByText('No batch submitted from this browser yet.').waitFor();
    await page.getByLabel('Prompts, one per line').fill('first prompt\nsecond prompt');
    await page.getByLabel('Provider (empty: auto)').fill('openai');
    await page.getByLabel("Model (empty: the provider's default)").fill('gpt-4o-mini');
    await page.getByRole('button', { name: 'Submit batch' }).click();
    await page.getByText('2 succeeded, 0 failed, 0 pending of 2').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: /^Results of/ }).click();
    const results = page.getByRole('region', { name: 'Items in index order' });
    await results.getByText('second prompt').waitFor();
    expect(await results.getByText('Routing is learning.').count()).toBe(2);
  });

  it('shows zero cost coverage, saves a seed cost row, simulates its price and resets to the defaults', async () => {
    const { token, merchantId } = await sessionToken();
    await go('costs');
    const tile = (label: string) =>
      page
        .locator('.kpi')
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator('.kpi-value');
    await tile('Fee clusters').waitFor();
    expect(await tile('Fee clusters').textContent()).toBe('0');
    expect(await tile('Transactions').textContent()).toBe('0');
    expect(await tile('Volume with a good fit').textContent()).toBe('0.00%');
    expect(await tile('Latest report').textContent()).toBe('none');
    await page.getByText('No settlement reports ingested yet', { exact: false }).waitFor();

    // The default table until one is saved: stripe's default row first.
    const rows = page.getByRole('region', { name: 'Seed cost rows', exact: true }).locator('tbody tr');
    expect(
      await rows
        .first()
        .getByLabel(/^PSP, row 1$/)
        .inputValue(),
    ).toBe('stripe');
    const defaults = await rows.count();
    await page.getByRole('button', { name: 'Add row' }).click();
    const added = rows.last();
    await added.getByLabel(/^PSP, row/).fill('acme');
    await added.getByLabel(/^Markup \(bps\), row/).fill('100');
    await added.getByLabel(/^Fixed, row/).fill('-1');
    await added.getByLabel(/^Default row, row/).check();
    await page.getByRole('button', { name: 'Save seed costs' }).click();
    await page.getByRole('alert').filter({ hasText: 'non-negative' }).waitFor();
    await added.getByLabel(/^Fixed, row/).fill('0.5');
    await page.getByRole('button', { name: 'Save seed costs' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Saved ${defaults + 1} rows.` })
      .waitFor();
    const stored = (await (await api(`/merchant-account/${merchantId}/seed-costs`, { method: 'GET', token })).json()) as { psp: string; fixed: number }[];
    expect(stored.find((row) => row.psp === 'acme')?.fixed).toBe(0.5);
    await page.reload();
    await page.getByRole('region', { name: 'Seed cost rows', exact: true }).waitFor();
    expect(
      await rows
        .last()
        .getByLabel(/^PSP, row/)
        .inputValue(),
    ).toBe('acme');

    await page.getByLabel('Amount', { exact: true }).fill('200');
    await page.getByLabel('PSPs (comma-separated, empty: all)').fill('stripe, acme');
    await page.getByRole('button', { name: 'Simulate' }).click();
    const result = page.getByTestId('simulate-result');
    const acme = result.getByRole('row').filter({ hasText: 'acme' });
    await acme.waitFor();
    // 1 % of 200 plus 0.50; stripe's default 2.9 % + 0.30 is 6.10.
    expect(await acme.locator('td').last().textContent()).toBe('2.50');
    expect(await acme.textContent()).toContain('cheapest');
    expect(await result.getByRole('row').filter({ hasText: 'stripe' }).locator('td').last().textContent()).toBe('6.10');
    await screenshot(page, 'costs-1280');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Reset to defaults' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset the seed cost table?' });
    await dialog.getByRole('button', { name: 'Reset to defaults' }).click();
    await page.getByRole('status').filter({ hasText: 'Back to the default table.' }).waitFor();
    expect(await rows.count()).toBe(defaults);
    await result.getByText('The table changed since').waitFor();
    await page.getByRole('button', { name: 'Simulate' }).click();
    await result.getByRole('row').filter({ hasText: 'acme' }).waitFor({ state: 'detached' });

    // The cost-savings panel reads /analytics/cost-savings, or says the service has no such route.
    const savings = page.getByRole('region', { name: 'Cost savings', exact: true });
    await savings
      .getByText(/not available on this service|Decisions won on cost/)
      .first()
      .waitFor();
  });

  it('keeps feature toggles across a reload and shows the chosen configuration of the last autopilot run', async () => {
    const { token, merchantId } = await sessionToken();
    await go('autopilot');
    const autopilot = page.getByRole('checkbox', { name: 'Autopilot', exact: true });
    const calibration = page.getByRole('checkbox', { name: 'SR auto-calibration', exact: true });
    const costAware = page.getByRole('checkbox', { name: 'Multi-objective (cost-aware) routing', exact: true });
    // A switch shows the requested state at once; the write is done when its answer has arrived.
    const toggled = async (feature: string, click: () => Promise<void>) => {
      const answered = page.waitForResponse((response) => response.url().endsWith(`/features/${feature}`) && response.request().method() === 'POST');
      await click();
      expect((await answered).status()).toBe(200);
    };
    await autopilot.waitFor();
    expect(await autopilot.isChecked()).toBe(false);
    await toggled('autopilot', () => autopilot.check());
    await toggled('auto-calibration', () => calibration.check());
    await page.reload();
    await autopilot.waitFor();
    expect(await autopilot.isChecked()).toBe(true);
    expect(await calibration.isChecked()).toBe(true);
    expect(await costAware.isChecked()).toBe(false);
    // Each flag is stored on its own: autopilot off leaves auto-calibration on.
    await toggled('autopilot', () => autopilot.uncheck());
    await page.reload();
    await calibration.waitFor();
    expect(await autopilot.isChecked()).toBe(false);
    expect(await calibration.isChecked()).toBe(true);
    const flags = (await (await api(`/merchant-account/${merchantId}/features`, { method: 'GET', token })).json()) as {
      features: { feature: string; enabled: boolean }[];
    };
    expect(flags.features.filter((flag) => flag.enabled).map((flag) => flag.feature)).toEqual(['auto-calibration']);

    const runs = page.getByRole('region', { name: 'Autopilot runs', exact: true });
    await runs.getByText('No autopilot runs yet').waitFor();
    // A run record as the autopilot job writes it (the job runs every 15 minutes over real traffic).
    const run: AutopilotCalibratedV1 = {
      runId: '1764064800000',
      merchantId,
      ranAt: Date.UTC(2026, 10, 25, 10, 0, 0),
      lookbackSeconds: 3600,
      outcome: 'applied',
      reason: null,
      segments: [
        {
          segment: { paymentMethodType: 'CARD', paymentMethod: 'CREDIT', cardNetwork: null, currency: 'USD', country: null, authType: null },
          volume: 812,
          gateways: 2,
          action: 'updated',
          before: { bucketSize: 125, hedgingPercent: 5 },
          after: { bucketSize: 400, hedgingPercent: 3.5 },
          proposed: { bucketSize: 200, hedgingPercent: 3.5 },
        },
      ],
      candidates: [
        { name: 'current', estimatedSuccessRate: 0.874, interval: [0.85, 0.898] },
        { name: 'formula', estimatedSuccessRate: 0.889, interval: [0.866, 0.912] },
        { name: 'formula_bucket_x2', estimatedSuccessRate: 0.912, interval: [0.89, 0.934] },
      ],
      chosen: 'formula_bucket_x2',
      chosenBy: 'counterfactual',
    };
    await harness.server.runtime.state.configs.put(merchantId, 'autopilotRuns', { runs: [run] }, 'upsert');
    await page.reload();
    const last = page.getByTestId('autopilot-last-run');
    await last.waitFor();
    expect(await last.getByTestId('autopilot-chosen').textContent()).toBe('formula_bucket_x2 (by counterfactual estimate)');
    expect(await last.getByTestId('autopilot-estimate').textContent()).toBe('91.20% (95 % CI 89.00% – 93.40%)');
    expect(await last.getByRole('row').filter({ hasText: 'formula_bucket_x2' }).textContent()).toContain('chosen');
    expect(await last.getByRole('row').filter({ hasText: 'CARD · CREDIT · USD' }).textContent()).toContain('bucket 400, hedging 3.5 %');

    // The counterfactual estimate answers with numbers or says plainly why it cannot.
    await page.getByLabel('Bucket size (outcomes)').fill('300');
    await page.getByRole('button', { name: 'Estimate' }).click();
    const estimate = page.getByRole('region', { name: 'Evaluate a configuration' });
    // This merchant logged a handful of decisions: too few to estimate, which the page says in words.
    const answer = estimate.locator('[data-testid="counterfactual-report"], p.state-empty').first();
    await answer.waitFor();
    expect(await answer.textContent()).toMatch(/Decisions evaluated|samples|overlap|outcome|logged/);
    expect(await estimate.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'autopilot-1280');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows a volume commitment as inert until its feature is on, then runs a forecast and lists the PSP behind pace', async () => {
    const { token, merchantId } = await sessionToken();
    await go('volume-commitments');
    const panel = page.getByRole('region', { name: 'Volume commitments' });
    await panel.getByText('No volume contract is active').waitFor();
    const contract = {
      routing_mode: 'pace_guarded',
      tolerance_bps: 500,
      currency: { denomination: 'USD' },
      expected_daily_traffic: 1_000_000_000,
      volume_contracts: [
        {
          id: 'adyen_year',
          connector: 'adyen',
          billing_cycle: { type: 'calendar_year', anchor: 1, timezone: 'UTC' },
          archetype: 'lumpsum',
          terms: { target: 5_000_000, reward: { kind: 'flat', value: { flat_amount: 25_000 } } },
        },
      ],
    };
    const created = await api('/routing/create', {
      token,
      body: { name: 'year', created_by: merchantId, algorithm: { type: 'volume_contract', data: contract } },
    });
    expect(created.status).toBe(200);
    const ruleId = ((await created.json()) as { rule_id: string }).rule_id;
    expect((await api('/routing/activate', { token, body: { created_by: merchantId, routing_algorithm_id: ruleId } })).status).toBe(200);
    await page.reload();
    await panel.getByText('the volume-contracts feature is off').waitFor();
    expect((await api(`/merchant-account/${merchantId}/features/volume-contracts`, { token, body: { enabled: true } })).status).toBe(200);
    await page.reload();
    const card = page.getByTestId('volume-commitment');
    await card.waitFor();
    expect(await card.getByTestId('vc-forecast').textContent()).toBe('not yet');
    const ran = page.waitForResponse((response) => response.url().includes('/volume-commitment/run-forecast'));
    await card.getByRole('button', { name: 'Run forecast now' }).click();
    expect((await ran).status()).toBe(200);
    await card.getByRole('row').filter({ hasText: 'adyen' }).waitFor();
    const row = await card.getByRole('row').filter({ hasText: 'adyen' }).textContent();
    expect(row).toContain('50,000 USD');
    expect(row).toMatch(/% of payments/);
    expect(await card.getByTestId('vc-forecast').textContent()).not.toBe('not yet');
    expect(await card.getByTestId('vc-reward').textContent()).toBe('250 USD');
    await screenshot(page, 'volume-commitments-1280');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('creates an experiment, lists it with its arms and verdict, and starts and stops it', async () => {
    const { token, merchantId } = await sessionToken();
    await go('experiments');
    await page.getByText('No experiments yet').waitFor();
    await page.getByRole('note').filter({ hasText: 'A/B tests on real payments' }).waitFor();
    await page.getByLabel('Experiment name').fill('Cost vs auth');
    const variant = page.getByRole('group', { name: 'Variant arm' });
    expect(await variant.getByLabel('Cost-aware (multi-objective)').isChecked()).toBe(true);
    await variant.getByLabel('Margin (0 to 1)').fill('0.2');
    await page.getByLabel('Variant share (%)').fill('60');
    await page.getByRole('button', { name: 'Create experiment (inactive)' }).click();
    await page.getByRole('alert').filter({ hasText: 'variant_split_pct' }).waitFor();
    await page.getByLabel('Variant share (%)').fill('20');
    await page.getByRole('button', { name: 'Create experiment (inactive)' }).click();

    const card = page.getByRole('region', { name: 'Cost vs auth', exact: true });
    await card.waitFor();
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('Success-rate routing (auth only)');
    expect(text).toContain('Success-rate routing (cost-aware, margin 0.2) — 20 % of payments');
    expect(await card.getByText('Inactive', { exact: true }).count()).toBe(1);
    const verdict = card.getByTestId('experiment-verdict');
    await verdict.waitFor();
    expect(await verdict.textContent()).toBe('Collecting data');
    expect(await card.getByRole('row').filter({ hasText: 'variant' }).locator('td').nth(1).textContent()).toBe('0');
    const listed = (await (await api(`/routing/list/${merchantId}`, { token })).json()) as { name: string; algorithm_data: { type: string } }[];
    expect(listed.find((rule) => rule.name === 'Cost vs auth')?.algorithm_data.type).toBe('ab_test');

    await card.getByRole('button', { name: 'Start Cost vs auth' }).click();
    await page.getByRole('dialog', { name: 'Start Cost vs auth?' }).getByRole('button', { name: 'Start Cost vs auth' }).click();
    await card.getByText('Active', { exact: true }).waitFor();
    await screenshot(page, 'experiments-1280');
    expect(await seriousViolations(page)).toEqual([]);
    await card.getByRole('button', { name: 'Stop Cost vs auth' }).click();
    await page.getByRole('dialog', { name: 'Stop Cost vs auth?' }).getByRole('button', { name: 'Stop Cost vs auth' }).click();
    await card.getByText('Inactive', { exact: true }).waitFor();
  });

  it('shows the experiment slot beside the active rule, asks before replacing a running experiment, and says why the guardrail stopped one', async () => {
    const { token, merchantId } = await sessionToken();
    const created = async (body: Record<string, unknown>) => {
      const response = await api('/routing/create', { token, body: { created_by: merchantId, ...body } });
      expect(response.status).toBe(200);
      return ((await response.json()) as { rule_id: string }).rule_id;
    };
    const activate = async (id: string) =>
      expect((await api('/routing/activate', { token, body: { created_by: merchantId, routing_algorithm_id: id } })).status).toBe(200);
    const rule = await created({ name: 'Slot rule', algorithm: { type: 'priority', data: [{ gateway_name: 'stripe', gateway_id: null }] } });
    const abTest = (name: string, data: Record<string, unknown>) =>
      created({ name, algorithm: { type: 'ab_test', data: { variant_split_pct: 20, min_sample_size: 50, guardrail_threshold_pp: 3, ...data } } });
    const first = await abTest('Hedging off', { control: { sr: {} }, variant: { sr: { hedging_percent: 0 } } });
    await abTest('Rule vs SR', {
      control: { rule_algorithm_id: rule },
      variant: { rule_algorithm_id: rule, sr: { use_autopilot: true } },
      endpoints: ['hybrid_routing'],
    });
    await activate(rule);
    await activate(first);
    await go('experiments');
    // The previous test left the page here: read the page afresh.
    await page.reload();
    const slot = page.getByTestId('experiment-slot');
    await slot.waitFor();
    expect(await slot.getByTestId('slot-rule').textContent()).toBe('Slot rule');
    expect(await slot.getByTestId('slot-experiment').textContent()).toBe('Hedging off');

    // The layered arms read in words; starting it while another runs asks first, naming what stops.
    const card = page.getByRole('region', { name: 'Rule vs SR', exact: true });
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('Slot rule, then Success-rate routing');
    expect(text).toContain('/routing/hybrid');
    await card.getByRole('button', { name: 'Start Rule vs SR' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start Rule vs SR?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('“Hedging off” is running');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await slot.getByTestId('slot-experiment').textContent()).toBe('Hedging off');
    await card.getByRole('button', { name: 'Start Rule vs SR' }).click();
    await dialog.getByRole('button', { name: 'Start and stop the other' }).click();
    await page.getByTestId('slot-experiment').filter({ hasText: 'Rule vs SR' }).waitFor();
    expect(await page.getByTestId('slot-rule').textContent()).toBe('Slot rule');

    // On the routing page, activating another rule names what stops, and that the experiment keeps running.
    await created({ name: 'Slot rule two', algorithm: { type: 'priority', data: [{ gateway_name: 'adyen', gateway_id: null }] } });
    await go('routing');
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'Slot rule two' }).getByRole('button', { name: 'Activate Slot rule two' }).click();
    const ruleDialog = page.getByRole('dialog', { name: 'Activate Slot rule two?' });
    await ruleDialog.waitFor();
    expect(await ruleDialog.textContent()).toContain(
      '“Slot rule” stops routing live payment traffic and “Slot rule two” takes its place. The running experiment “Rule vs SR” keeps running beside it.',
    );
    await ruleDialog.getByRole('button', { name: 'Cancel' }).click();
    await go('experiments');
    await page.reload();

    // A guardrail stop (as the scheduled check records it) is told with its time and evidence.
    const stoppedAt = Date.UTC(2026, 8, 20, 9, 30, 0);
    await harness.server.runtime.state.configs.put(
      merchantId,
      'experimentGuardrail',
      {
        experimentId: first,
        experimentModifiedAt: 0,
        trippedAt: stoppedAt,
        controlAuthRate: 0.92,
        variantAuthRate: 0.81,
        thresholdPp: 3,
        trigger: 'schedule',
        controlTransactions: 400,
        variantTransactions: 100,
        windowStartMs: stoppedAt - 86_400_000,
      },
      'upsert',
    );
    await page.reload();
    const stop = page.getByRole('region', { name: 'Hedging off', exact: true }).getByTestId('guardrail-stop');
    await stop.waitFor();
    expect(await stop.textContent()).toBe(
      "Stopped by the periodic check at 2026-09-20 09:30:00 UTC: the variant's auth rate (81.00% on 100 resolved payments) fell more than the 3 pp guardrail below control's (92.00% on 400 resolved payments). Payments go by the active rule.",
    );
    await screenshot(page, 'experiments-slot-1280');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows the error state with the API message and recovers on retry', async () => {
    await page.route('**/analytics/decisions*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'TE_00', message: 'Failed while connecting to database', data: null }),
      }),
    );
    await go('overview');
    await page.getByRole('alert').filter({ hasText: 'Could not load the overview: Failed while connecting to database' }).waitFor();
    await screenshot(page, 'overview-error-1280');
    await page.unroute('**/analytics/decisions*');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { name: 'Decision volume by routing approach' }).waitFor();
  });

  it('renders every page at 1280 px and at phone width with no serious accessibility violations', async () => {
    const stored = await page.evaluate(() => sessionStorage.getItem('switchyard.session'));
    const phone = await harness.newPage(390, 844);
    await phone.context.addInitScript((session) => sessionStorage.setItem('switchyard.session', session), stored ?? '');
    try {
      for (const [target, width] of [
        [page, 1280],
        [phone.page, 390],
      ] as const) {
        for (const path of dashboardPages) {
          await target.goto(`/dashboard/#/${path}`);
          await target.getByRole('heading', { level: 1 }).waitFor();
          // Each page settles when its loading line is gone (data, empty or error state shown).
          await target.waitForFunction(() => (globalThis as unknown as PageGlobals).document.querySelector('.state-loading') === null);
          const overflow = await target.evaluate(() => {
            const root = (globalThis as unknown as PageGlobals).document.documentElement;
            return root.scrollWidth - root.clientWidth;
          });
          expect(overflow, `${path} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
          await screenshot(target, `page-${path}-${width}`);
          expect(await seriousViolations(target), `${path} at ${width} px`).toEqual([]);
        }
      }
      // On a phone the navigation folds behind the Menu button, which keyboard users reach too.
      await phone.page.getByRole('button', { name: 'Menu' }).focus();
      await phone.page.keyboard.press('Enter');
      await phone.page.getByRole('link', { name: 'API keys' }).click();
      await phone.page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.context.close();
    }
    // 240 s: every page twice, each with a screenshot and an accessibility scan, on a shared loaded machine.
  }, 240_000);

  it('adds a second merchant, shows its empty states, and switches back to the first', async () => {
    const first = (await sessionToken()).merchantId;
    await go('new-merchant');
    await page.getByLabel('Merchant name').fill('Second Shop');
    await page.getByRole('button', { name: 'Create merchant' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const second = (await sessionToken()).merchantId;
    expect(second).not.toBe(first);
    expect(await page.getByLabel('Merchant').locator('option:checked').textContent()).toContain('Second Shop');
    for (const path of dashboardPages) {
      await go(path);
      await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.querySelector('.state-loading') === null);
      await screenshot(page, `empty-${path}-1280`);
    }
    await go('keys');
    await page.getByText('No keys yet').waitFor();
    await page.getByLabel('Merchant').selectOption(first);
    await page.getByRole('row').filter({ hasText: 'checkout service' }).waitFor();
    expect((await sessionToken()).merchantId).toBe(first);
  });

  it('lets keyboard users skip the navigation straight to the first control of the page', async () => {
    await go('keys');
    await page.reload();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(
      await skip.evaluate((element) => element === (element as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement),
    ).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash)).toBe('#/keys');
    await page.keyboard.press('Tab');
    expect(
      await page
        .getByLabel('Description')
        .evaluate((element) => element === (element as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement),
    ).toBe(true);
  });

  it('raised no page errors and no CSP refusals', () => {
    expect(problems).toEqual([]);
  });
});
