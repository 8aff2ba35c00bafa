import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignArm } from '../../src/experiments/assign-arm.js';
import { expectedValue } from '../../src/decision/multi-objective/rank-by-expected-value.js';
import { screenshot, seriousViolations, signUpWithMerchant, startDashboardHarness, type DashboardHarness } from './dashboard-harness.js';

/**
 * Safe changes and honest money on the dashboard (issue 37): every activation asks first and says
 * what happens to live traffic, a running experiment included; a refused rule is explained in words
 * under its field; the margin of cost routing is on the SR form; the seed-cost table fits its panel
 * at 1280 px; the simulator prices the scenario it shows; savings are net of the approvals the
 * cheaper gateway is expected to lose, per currency; a guardrail stop is told with its evidence.
 * Tests run in order and share one operator and merchant.
 */

/** The little of the DOM that functions run in the page use (this project's types are Node's, without the DOM). */
interface Box {
  readonly left: number;
  readonly right: number;
}
interface PageElement {
  getBoundingClientRect(): Box;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly textContent: string | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
}

let harness: DashboardHarness;
let context: BrowserContext;
let page: Page;
let problems: string[];
let token: string;
let merchantId: string;
const email = `safe-operator-${Date.now()}@example.com`;

async function api(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${harness.url}${path}`, {
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
}

async function created(name: string, algorithm: Record<string, unknown>): Promise<string> {
  const response = await api('/routing/create', { body: { created_by: merchantId, name, algorithm } });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { rule_id: string }).rule_id;
}

async function activeIds(): Promise<string[]> {
  const response = await api(`/routing/list/active/${merchantId}`);
  return ((await response.json()) as { id: string }[]).map((rule) => rule.id);
}

interface PspSummary {
  readonly psp: string;
  readonly authRate: number;
  readonly costBps: number | null;
}
interface Decided {
  readonly decided_gateway: string;
  readonly gateway_priority_map: Readonly<Record<string, number>> | null;
  readonly multi_objective_info: {
    readonly outcome: string;
    readonly srHead: PspSummary;
    readonly chosen: PspSummary;
    readonly costSavedBps: number | null;
    readonly margin: number;
  } | null;
}

async function decide(paymentId: string, payment: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}): Promise<Decided> {
  const response = await api('/decide-gateway', {
    body: {
      merchantId,
      eligibleGatewayList: ['stripe', 'adyen'],
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
        ...payment,
      },
      ...overrides,
    },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Decided;
}

async function feedback(paymentId: string, gateway: string, status: 'CHARGED' | 'FAILURE'): Promise<void> {
  expect((await api('/update-gateway-score', { body: { merchantId, gateway, paymentId, status } })).status).toBe(200);
}

async function setFeature(feature: string, enabled: boolean): Promise<void> {
  expect((await api(`/merchant-account/${merchantId}/features/${feature}`, { body: { enabled } })).status).toBe(200);
}

async function go(path: string): Promise<void> {
  await page.goto(`/dashboard/#/${path}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
}

beforeAll(async () => {
  // The guardrail check every second (default 60 s): the stop below follows its feedback within seconds.
  harness = await startDashboardHarness({ env: { EXPERIMENT_GUARDRAIL_INTERVAL_SECONDS: '1' } });
  ({ context, page, problems } = await harness.newPage(1280, 900));
  ({ token, merchantId } = await signUpWithMerchant(page, { email, merchantName: 'Safe Shop' }));
}, 120_000);

afterAll(async () => {
  await context?.close();
  await harness?.close();
});

describe('safe changes to live routing', () => {
  let rule: string;
  let experiment: string;

  it('asks before a rule activation that would have ended a running experiment, names it, and the experiment keeps running', async () => {
    rule = await created('Card rule', { type: 'priority', data: [{ gateway_name: 'stripe', gateway_id: null }] });
    experiment = await created('Hedging trial', {
      type: 'ab_test',
      data: { variant_split_pct: 20, min_sample_size: 50, guardrail_threshold_pp: 3, control: { sr: {} }, variant: { sr: { hedging_percent: 0 } } },
    });
    // An experiment started before the experiment slot existed sits in the rule slot: activating a rule
    // used to replace it there without a word.
    await harness.server.runtime.state.routingRules.activate(merchantId, 'payment', experiment);
    await go('routing');
    const row = page.getByRole('row').filter({ hasText: 'Card rule' });
    await row.getByRole('button', { name: 'Activate Card rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Activate Card rule?' });
    await dialog.waitFor();
    expect(await dialog.getByTestId('live-change').textContent()).toBe(
      "“Card rule” starts routing live payment traffic in place of success-rate routing over each request's gateways. The running experiment “Hedging trial” keeps running beside it.",
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await activeIds()).toEqual([experiment]);
    await row.getByRole('button', { name: 'Activate Card rule' }).click();
    await dialog.getByRole('button', { name: 'Activate Card rule' }).click();
    await row.getByText('Active', { exact: true }).waitFor();
    // What the dialog said is what the API did: both route live traffic now.
    expect(await activeIds()).toEqual([rule, experiment]);
    expect(await harness.server.runtime.state.routingRules.activeIds(merchantId)).toEqual({ payment: rule, payment_experiment: experiment });
  });

  it('asks before a deactivation, saying where the payments go, and before stopping the experiment', async () => {
    const row = page.getByRole('row').filter({ hasText: 'Card rule' });
    await row.getByRole('button', { name: 'Deactivate Card rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate Card rule?' });
    expect(await dialog.getByTestId('live-change').textContent()).toBe(
      "“Card rule” stops routing live payment traffic: those payments go by success-rate routing over each request's gateways. The running experiment “Hedging trial” keeps running.",
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const experimentRow = page.getByRole('row').filter({ hasText: 'Hedging trial' });
    await experimentRow.getByRole('button', { name: 'Deactivate Hedging trial' }).click();
    const stop = page.getByRole('dialog', { name: 'Stop Hedging trial?' });
    expect(await stop.getByTestId('live-change').textContent()).toBe(
      'The experiment “Hedging trial” ends: its variant arm gets no more payments, and every payment goes by the active rule “Card rule”. Its results stay on the Experiments page.',
    );
    await stop.getByRole('button', { name: 'Stop Hedging trial' }).click();
    await experimentRow.getByText('Inactive', { exact: true }).waitFor();
    expect(await activeIds()).toEqual([rule]);
  });

  it('explains a refused advanced rule in words under the field it is about', async () => {
    await page.getByLabel('Name', { exact: true }).fill('Empty amount');
    await page.getByLabel('Algorithm', { exact: true }).selectOption('advanced');
    await page.locator('#rule0-name').fill('Big tickets');
    await page.locator('#rule0-priority').fill('adyen');
    await page.locator('#rule0-g0-c0-key').selectOption('amount');
    await page.locator('#rule0-g0-c0-comparison').selectOption('greater_than');
    // The value left empty: sent as null, which the API refuses.
    await page.getByLabel('Default gateways when no rule applies (comma-separated, in order)').fill('stripe');
    await page.getByRole('button', { name: 'Create rule (inactive)' }).click();
    const summary = page.getByTestId('rule-issues');
    await summary.waitFor();
    const words = 'Rule 1 “Big tickets”, group 1, condition 1 (amount): enter a whole number, 0 or more; it is empty.';
    expect(await summary.textContent()).toBe(`The rule was not created: one field needs fixing.${words}`);
    expect(await summary.textContent()).not.toMatch(/invalid_shape|9007199254740991|data\.rules/);
    const value = page.locator('#rule0-g0-c0-value');
    expect(await value.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await value.getAttribute('aria-describedby')}`).textContent()).toBe(words);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows the margin that drives cost routing on the success-rate form, and saves it', async () => {
    const margin = page.getByLabel('Margin (fraction of ticket)');
    expect(await margin.inputValue()).toBe('');
    expect(await page.locator('#sr-margin-hint').textContent()).toContain('(in effect: 1, the default)');
    await margin.fill('0.25');
    await page.getByRole('button', { name: 'Save success-rate configuration' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).first().waitFor();
    const stored = await api('/rule/get', { body: { merchant_id: merchantId, algorithm: 'successRate' } });
    expect(((await stored.json()) as { config: { data: { margin: number } } }).config.data.margin).toBe(0.25);
    await page.reload();
    // The form can be on screen before the stored configuration has filled it: wait for the value.
    await expect.poll(() => page.getByLabel('Margin (fraction of ticket)').inputValue(), { timeout: 30_000 }).toBe('0.25');
    expect(await page.locator('#sr-margin-hint').textContent()).toContain('(in effect: 0.25)');
  });
});

describe('honest money', () => {
  it('fits the seed cost table in its panel at 1280 px, Markup, Fixed and Default included', async () => {
    await go('costs');
    const region = page.getByRole('region', { name: 'Seed cost rows', exact: true });
    await region.locator('tbody tr').first().waitFor();
    const fit = await region.evaluate((element) => {
      const box = element as unknown as PageElement;
      const edge = box.getBoundingClientRect();
      const headers = Array.from(box.querySelectorAll('thead th'));
      return {
        overflow: box.scrollWidth - box.clientWidth,
        outside: headers
          .filter((th) => th.getBoundingClientRect().right > edge.right + 0.5 || th.getBoundingClientRect().left < edge.left - 0.5)
          .map((th) => th.textContent),
        headers: headers.map((th) => th.textContent),
      };
    });
    expect(fit.headers).toEqual(expect.arrayContaining(['Markup (bps)', 'Fixed', 'Default', 'Remove']));
    expect(fit.outside).toEqual([]);
    expect(fit.overflow).toBeLessThanOrEqual(0);
  });

  it('prices the scenario the simulator shows: real values, no placeholders', async () => {
    const fields = ['Currency', 'Card network', 'Funding', 'Card program', 'Issuer country or region'];
    const simulator = page.getByRole('region', { name: 'Simulate a payment' });
    const shown = await Promise.all(fields.map((label) => simulator.getByLabel(label, { exact: true }).inputValue()));
    expect(shown).toEqual(['USD', 'visa', 'credit', 'standard', 'us']);
    for (const label of fields) expect(await simulator.getByLabel(label, { exact: true }).getAttribute('placeholder')).toBeNull();
    const sent = page.waitForRequest((request) => request.url().endsWith('/seed-costs/simulate'));
    await page.getByRole('button', { name: 'Simulate' }).click();
    expect((await sent).postDataJSON()).toEqual({
      amount: 100,
      transaction_currency: 'USD',
      card_network: 'visa',
      payment_method_type: 'credit',
      card_type: 'standard',
      card_issuing_country: 'us',
      psps: [],
    });
    const result = page.getByTestId('simulate-result');
    expect(await result.getByTestId('simulate-scenario').textContent()).toBe('Priced: 100 USD, visa, credit, standard, issuer us.');
    // adyen's US credit standard row (2.22 % + 0.24), not its default row (1.94 % + 0.24 = 2.18).
    expect(await result.getByRole('row').filter({ hasText: 'adyen' }).locator('td').last().textContent()).toBe('2.46');
    await simulator.getByLabel('Card network', { exact: true }).fill('');
    await result.getByText('The form changed since: simulate again to price what it shows.').waitFor();
    await page.getByRole('button', { name: 'Simulate' }).click();
    await result.getByText('Priced: 100 USD, any network, credit, standard, issuer us.').waitFor();
  });

  it('shows savings net of the approvals the cheaper gateway is expected to lose, per currency', async () => {
    // Cost-aware routing with a 4 % margin, no hedging, a short window; stripe approves everything, adyen 7 in 10.
    const config = { defaultBucketSize: 10, defaultHedgingPercent: 0, margin: 0.04 };
    // Stored already when the margin test saved the form: update it, else create it.
    const body = { merchant_id: merchantId, config: { type: 'successRate', data: config } };
    const updated = await api('/rule/update', { body });
    if (updated.status === 404) expect((await api('/rule/create', { body })).status).toBe(200);
    else expect(updated.status).toBe(200);
    expect((await api('/routing/deactivate', { body: { created_by: merchantId, routing_algorithm_id: (await activeIds())[0] } })).status).toBe(200);
    for (let index = 0; index < 10; index += 1) {
      await decide(`train-stripe-${index}`, {}, { enableMultiObjective: false });
      await feedback(`train-stripe-${index}`, 'stripe', 'CHARGED');
      await decide(`train-adyen-${index}`, {}, { enableMultiObjective: false });
      await feedback(`train-adyen-${index}`, 'adyen', index < 7 ? 'CHARGED' : 'FAILURE');
    }
    // Feedback moves the scores through the event bus: wait until a plain SR decision sees them (stripe 1, adyen 0.7).
    let probe = 0;
    await expect
      .poll(
        async () => {
          const scores = (await decide(`probe-${probe++}`, {}, { enableMultiObjective: false })).gateway_priority_map ?? {};
          return (scores['stripe'] ?? 0) - (scores['adyen'] ?? 0);
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0.29);
    await setFeature('multi-objective-routing', true);
    // What each decision reports is what the savings must add up to: fee saved, and EV gained net of lost approvals.
    const expected = new Map<string, { saved: number; net: number; lost: number; won: number }>();
    const payments: [string, string][] = [
      ['usd-1', 'USD'],
      ['usd-2', 'USD'],
      ['usd-3', 'USD'],
      ['eur-1', 'EUR'],
      ['eur-2', 'EUR'],
    ];
    for (const [paymentId, currency] of payments) {
      const info = (await decide(paymentId, { currency, amount: 100 })).multi_objective_info;
      expect(info?.outcome, JSON.stringify(info)).toBe('COST_WON');
      const { srHead, chosen, margin } = info!;
      const sums = expected.get(currency) ?? { saved: 0, net: 0, lost: 0, won: 0 };
      expected.set(currency, {
        saved: sums.saved + (100 * (info!.costSavedBps ?? 0)) / 10_000,
        net: sums.net + 100 * (expectedValue(chosen.authRate, chosen.costBps!, margin) - expectedValue(srHead.authRate, srHead.costBps!, margin)),
        lost: sums.lost + srHead.authRate - chosen.authRate,
        won: sums.won + 1,
      });
    }
    const usd = expected.get('USD')!;
    // Approvals are expected to be lost, so the net is below the fee saved.
    expect(usd.lost).toBeGreaterThan(0);
    expect(usd.net).toBeLessThan(usd.saved);
    // Every decision the page will show is in the analytics, both currencies' (the totals are USD's alone:
    // waiting on them let the page read before the EUR rows had landed, run 160 of 2026-12-03).
    await expect
      .poll(
        async () => {
          const report = (await (await api('/analytics/cost-savings?range=1d', { method: 'GET' })).json()) as {
            totals: { cost_won_count: number };
            available_currencies: { currency: string; decision_count: number }[];
          };
          return { costWon: report.totals.cost_won_count, currencies: report.available_currencies };
        },
        { timeout: 60_000 },
      )
      .toEqual({
        costWon: 3,
        currencies: [
          { currency: 'USD', decision_count: 3 },
          { currency: 'EUR', decision_count: 2 },
        ],
      });

    await go('costs');
    // The page was open since before these decisions: read it afresh.
    await page.reload();
    const panel = page.getByRole('region', { name: 'Cost savings', exact: true });
    const tile = (label: string) =>
      panel
        .locator('.kpi')
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator('.kpi-value');
    await tile('Saved, net of lost approvals').waitFor();
    expect(await tile('Saved, net of lost approvals').textContent()).toBe(`${usd.net.toFixed(2)} USD`);
    expect(await tile('Fees saved').textContent()).toBe(`${usd.saved.toFixed(2)} USD`);
    expect(await tile('Approvals lost (expected)').textContent()).toBe(usd.lost.toFixed(2));
    expect(await panel.getByLabel('Currency').locator('option').allTextContents()).toEqual(['USD (3 decisions)', 'EUR (2 decisions)']);
    await panel.getByLabel('Currency').selectOption('EUR');
    const eur = expected.get('EUR')!;
    await panel.getByText(`${eur.net.toFixed(2)} EUR`, { exact: true }).waitFor();
    expect(await tile('Fees saved').textContent()).toBe(`${eur.saved.toFixed(2)} EUR`);
    expect(await tile('Decisions won on cost').textContent()).toBe('2');
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe('experiments', () => {
  it('says the guardrail stopped the variant, when, and on what evidence', async () => {
    await setFeature('multi-objective-routing', false);
    await setFeature('ab-test-real-payments', true);
    const guarded = await created('Guarded trial', {
      type: 'ab_test',
      data: { variant_split_pct: 40, min_sample_size: 10, guardrail_threshold_pp: 3, control: { sr: {} }, variant: { sr: { hedging_percent: 0 } } },
    });
    expect((await api('/routing/activate', { body: { created_by: merchantId, routing_algorithm_id: guarded } })).status).toBe(200);
    // 20 payments per arm: control's all approved, the variant's all declined.
    const ids = Array.from({ length: 200 }, (_, index) => `guard-${index}`);
    for (const arm of ['control', 'variant'] as const) {
      for (const paymentId of ids.filter((id) => assignArm(id, 40) === arm).slice(0, 20)) {
        const decided = await decide(paymentId);
        await feedback(paymentId, decided.decided_gateway, arm === 'control' ? 'CHARGED' : 'FAILURE');
      }
    }
    // Only the periodic check stops it (docs/experiments.md; every second here): read until the analytics store has the outcomes and a check has stopped it.
    await expect
      .poll(
        async () =>
          ((await (await api(`/analytics/experiment/${guarded}/results`, { method: 'GET' })).json()) as { guardrail_stop: unknown }).guardrail_stop !== null,
        { timeout: 60_000 },
      )
      .toBe(true);
    expect(await activeIds()).not.toContain(guarded);

    await go('experiments');
    await page.reload();
    const card = page.getByRole('region', { name: 'Guarded trial', exact: true });
    const verdict = card.getByTestId('experiment-verdict');
    await verdict.waitFor();
    expect(await verdict.textContent()).toBe('Stopped by the guardrail');
    // When, by which check, and the evidence: each arm's auth rate on its resolved payments against the threshold.
    const stop = (await card.getByTestId('guardrail-stop').textContent()) ?? '';
    expect(stop).toMatch(/^Stopped by (a results read|the periodic check) at \d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?/);
    // The check trips as soon as the outcomes it has read are evidence enough, maybe before all 20 per arm arrived.
    const evidence =
      /the variant's auth rate \(0\.00% on (\d+) resolved payments\) fell more than the 3 pp guardrail below control's \(100\.00% on (\d+) resolved payments\)/.exec(
        stop,
      );
    expect(evidence, stop).not.toBeNull();
    for (const count of [Number(evidence![1]), Number(evidence![2])]) {
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual(20);
    }
    expect(await card.textContent()).not.toContain('the variant receives no traffic');
    expect(await seriousViolations(page)).toEqual([]);
  });

  // docs/images/dashboard/ holds copies of these four (docs/dashboard.md says how to refresh them).
  it('takes the overview, costs, autopilot and experiments pages at 1280 px for docs/dashboard.md', async () => {
    for (const path of ['overview', 'costs', 'autopilot', 'experiments']) {
      await go(path);
      await page.waitForFunction(
        () => (globalThis as unknown as { document: { querySelector(selector: string): unknown } }).document.querySelector('.state-loading') === null,
      );
      await screenshot(page, `docs-${path}-1280`);
    }
  });

  it('raised no page errors and no CSP refusals', () => {
    expect(problems).toEqual([]);
  });
});
