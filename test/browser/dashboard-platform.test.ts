import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, seriousViolations, signUpWithMerchant, startDashboardHarness, type DashboardHarness } from './dashboard-harness.js';

/**
 * The gateway-as-a-platform pages (issue 39): provider credentials (stored values never shown,
 * the form cleared after each submit, confirmations that say what changes for live traffic), end
 * users (spend beside each key's per-end-user limits) and the MCP gateway (URL, client config,
 * namespaced tools, keys' allow-lists), each against the real service.
 */

let harness: DashboardHarness;
let context: BrowserContext;
let page: Page;
let problems: string[];
let token: string;
let merchantId: string;
const email = `platform-${Date.now()}@example.com`;
const merchantSecret = 'sk-browser-merchant-7777777777';

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = { authorization: `Bearer ${token}` }): Promise<Response> {
  return fetch(`${harness.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

beforeAll(async () => {
  harness = await startDashboardHarness();
  ({ context, page, problems } = await harness.newPage(1280, 900));
  ({ token, merchantId } = await signUpWithMerchant(page, { email, merchantName: 'Platform Shop' }));
});

afterAll(async () => {
  await context?.close();
  await harness?.close();
});

describe('the provider credentials page', () => {
  it('stores a key it never shows again, clears the form, and says what a delete and the operator switch change for live traffic', async () => {
    await page.goto('/dashboard/#/provider-credentials');
    await page.getByRole('heading', { name: 'Provider credentials', level: 1 }).waitFor();
    await page.getByText("No credentials stored: every call uses the operator's.").waitFor();

    const form = page.getByRole('form', { name: 'Add or replace a credential' });
    await form.getByLabel('Provider').selectOption('openai');
    const secret = form.getByLabel('OPENAI_API_KEY');
    expect(await secret.getAttribute('type')).toBe('password');
    await secret.fill(merchantSecret);
    await form.getByRole('button', { name: 'Save credential' }).click();
    const table = page.getByRole('table', { name: 'Provider credentials of this merchant' });
    await table.getByRole('cell', { name: '…7777' }).waitFor();
    expect(await form.getByLabel('OPENAI_API_KEY').inputValue()).toBe('');
    expect(await page.content()).not.toContain(merchantSecret);

    // A second, named account that only a route group candidate uses.
    await form.getByLabel('Name').fill('blue');
    await form.getByLabel('OPENAI_API_KEY').fill('sk-browser-blue-8888888888');
    await form.getByRole('button', { name: 'Save credential' }).click();
    await table.getByRole('cell', { name: '…8888' }).waitFor();
    const group = await call('PUT', '/v1/route-groups/blue-team', { candidates: [{ provider: 'openai', model: 'gpt-4o-mini', credential: 'blue' }] });
    expect(group.status).toBe(200);
    await page.reload();

    await page.getByRole('button', { name: 'Delete openai credential blue' }).click();
    const deleteDialog = page.getByRole('dialog', { name: 'Delete the openai credential “blue”?' });
    await deleteDialog.waitFor();
    expect(await deleteDialog.textContent()).toContain('Route groups blue-team name it: their openai candidates fail');
    await deleteDialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Delete openai credential default' }).click();
    const defaultDialog = page.getByRole('dialog', { name: 'Delete the openai credential “default”?' });
    expect(await defaultDialog.textContent()).toContain("openai calls move to the operator's credentials at once");
    await defaultDialog.getByRole('button', { name: 'Cancel' }).click();

    // The switch moves only once the dialog is confirmed.
    await page.getByLabel('Forbid operator credentials').click();
    expect(await page.getByLabel('Forbid operator credentials').isChecked()).toBe(false);
    const forbid = page.getByRole('dialog', { name: "Forbid the operator's credentials?" });
    await forbid.waitFor();
    // openai is covered by the merchant's own key; the rest would be refused.
    expect(await forbid.textContent()).toMatch(/Live calls to anthropic, .* are refused from the next request on/);
    expect(await forbid.textContent()).not.toMatch(/calls to [^.]*openai/);
    await screenshot(page, 'provider-credentials-forbid-1280');
    await forbid.getByRole('button', { name: 'Forbid' }).click();
    await page.getByText("Forbidden: calls to a provider you stored no credential for are refused, never sent with the operator's.").waitFor();
    expect(((await (await call('GET', '/provider-credentials')).json()) as { operator_fallback: boolean }).operator_fallback).toBe(false);
    expect(await page.getByLabel('Forbid operator credentials').isChecked()).toBe(true);
    await screenshot(page, 'provider-credentials-1280');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe('the confirmations of deletes', () => {
  it('deletes the named credential and then the route group that named it, each only once its dialog is confirmed', async () => {
    await page.goto('/dashboard/#/provider-credentials');
    const table = page.getByRole('table', { name: 'Provider credentials of this merchant' });
    await table.getByRole('cell', { name: '…8888' }).waitFor();
    await page.getByRole('button', { name: 'Delete openai credential blue' }).click();
    await page.getByRole('dialog', { name: 'Delete the openai credential “blue”?' }).getByRole('button', { name: 'Delete credential' }).click();
    await table.getByRole('cell', { name: '…8888' }).waitFor({ state: 'detached' });
    await table.getByRole('cell', { name: '…7777' }).waitFor();

    await page.goto('/dashboard/#/route-groups');
    await page.getByRole('button', { name: 'Delete route group blue-team' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this route group?' });
    expect(await dialog.textContent()).toContain('Requests naming “blue-team” as their model will fail once it is gone.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(((await (await call('GET', '/v1/route-groups')).json()) as { data: { name: string }[] }).data.map((group) => group.name)).toEqual(['blue-team']);
    await page.getByRole('button', { name: 'Delete route group blue-team' }).click();
    await dialog.getByRole('button', { name: 'Delete group' }).click();
    await page.getByText('No route groups yet').waitFor();
    expect(((await (await call('GET', '/v1/route-groups')).json()) as { data: unknown[] }).data).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe('the end users page', () => {
  it("shows each end user's spend beside the per-end-user limits of its key", async () => {
    const created = await call('POST', '/api-key/create', {
      merchant_id: merchantId,
      description: 'shared app key',
      limits: { per_end_user: { budget: { amount_usd: 0.5, period: 'day' }, rpm: 10 } },
    });
    expect(created.status).toBe(200);
    const { api_key: apiKey } = (await created.json()) as { api_key: string };
    const answered = await call(
      'POST',
      '/v1/chat/completions',
      { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], user: 'alice@example.com' },
      { 'x-api-key': apiKey },
    );
    expect(answered.status).toBe(200);
    // The analytics sink writes in the background: wait until the call is there.
    await expect
      .poll(
        async () =>
          ((await (await call('GET', '/analytics/llm/end-users?range=1h')).json()) as { end_users: { end_user: string }[] }).end_users.map(
            (row) => row.end_user,
          ),
        { timeout: 60_000 },
      )
      .toContain('alice@example.com');

    await page.goto('/dashboard/#/end-users');
    await page.getByRole('heading', { name: 'End users', level: 1 }).waitFor();
    const limits = page.getByRole('table', { name: "Per-end-user limits of the merchant's active keys" });
    const keyRow = limits.getByRole('row').filter({ hasText: 'shared app key' });
    await keyRow.waitFor();
    expect(await keyRow.textContent()).toContain('$0.5 per day, 10 requests/min');
    expect(await keyRow.textContent()).toContain("the key's own");
    const spend = page.getByRole('table', { name: 'Spend per end user and API key' });
    await spend.getByRole('cell', { name: 'alice@example.com' }).waitFor();
    await screenshot(page, 'end-users-1280');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe('the MCP gateway page', () => {
  it('shows the /mcp URL and a client config to copy, the namespaced tools and which keys may call them', async () => {
    const narrow = await call('POST', '/api-key/create', {
      merchant_id: merchantId,
      description: 'clock only',
      mcp: { allowed_tools: ['switchyard__getCurrentTime'] },
    });
    expect(narrow.status).toBe(200);

    await page.goto('/dashboard/#/mcp');
    await page.getByRole('heading', { name: 'MCP gateway', level: 1 }).waitFor();
    const url = `${harness.url}/mcp`;
    expect(await page.getByTestId('mcp-url').textContent()).toBe(url);
    const snippet = JSON.parse((await page.getByTestId('mcp-client-config').textContent()) ?? '{}') as {
      mcpServers: { switchyard: { type: string; url: string; headers: Record<string, string> } };
    };
    // The key stays out of the file: Claude Code fills `${SWITCHYARD_API_KEY}` from the environment.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal placeholder the client expands
    expect(snippet.mcpServers.switchyard).toEqual({ type: 'http', url, headers: { Authorization: 'Bearer ${SWITCHYARD_API_KEY}' } });
    await page.getByRole('button', { name: 'Copy client config' }).click();
    await page.getByText('Copied.').waitFor();
    expect(JSON.parse(await page.evaluate<string>('navigator.clipboard.readText()'))).toEqual(snippet);

    // The tools as /mcp lists them, each with the keys whose allow-list lets it through.
    const listed = (await (await call('GET', '/api/mcp/gateway-tools')).json()) as { tools: { name: string }[] };
    const tools = page.getByRole('table', { name: 'Tools the MCP gateway serves this merchant' });
    const clock = tools.getByRole('row').filter({ hasText: 'switchyard__getCurrentTime' });
    await clock.waitFor();
    expect(await clock.textContent()).toContain('every key');
    const other = listed.tools.map((tool) => tool.name).find((name) => name !== 'switchyard__getCurrentTime') as string;
    expect(other).toMatch(/^switchyard__/);
    const otherRow = tools.getByRole('row').filter({ hasText: other });
    expect(await otherRow.textContent()).not.toContain('every key');
    expect(await otherRow.textContent()).not.toContain('clock only');
    const allowLists = page.getByRole('table', { name: 'MCP tool allow-list of each active key' });
    expect(await allowLists.getByRole('row').filter({ hasText: 'clock only' }).textContent()).toContain('switchyard__getCurrentTime');
    await page.getByText('No MCP server: register one with POST /api/mcp/servers').waitFor();
    await screenshot(page, 'mcp-gateway-1280');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
