import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, seriousViolations, signUpWithMerchant, startDashboardHarness, type DashboardHarness } from './dashboard-harness.js';
import { seededRandom } from '../../bench/lib/seeded-random.mjs';

/**
 * The autopilot page's counterfactual panel (issue 37 point 5): on real logged traffic it shows one
 * recommended estimate with its 95 % interval and a sentence on whether and why the estimators
 * disagree, the same figures POST /analytics/counterfactual answers; an elimination-threshold
 * candidate is answered with the observed rate and why.
 */

let harness: DashboardHarness;
let context: BrowserContext;
let page: Page;
let problems: string[];
const email = `counterfactual-${Date.now()}@example.com`;
const decisions = 160;
const gateways = ['stripe', 'adyen', 'checkout'];
const trueRates: Record<string, number> = { stripe: 0.9, adyen: 0.6, checkout: 0.75 };

async function api(path: string, token: string, body: unknown): Promise<Response> {
  return fetch(`${harness.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
}

function decideBody(merchantId: string, paymentId: string) {
  return {
    merchantId,
    eligibleGatewayList: gateways,
    rankingAlgorithm: 'SR_BASED_ROUTING',
    eliminationEnabled: true,
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

const percent = (fraction: number) => `${(fraction * 100).toFixed(2)}%`;

beforeAll(async () => {
  harness = await startDashboardHarness();
  ({ context, page, problems } = await harness.newPage(1280, 900));
});

afterAll(async () => {
  await context?.close();
  await harness?.close();
});

describe('the counterfactual panel', () => {
  it('shows the recommended estimate, its interval and the sentence, as the API answers them', async () => {
    const { token, merchantId } = await signUpWithMerchant(page, { email, merchantName: 'Counterfactual Shop' });

    // Small windows and 20 % hedging, so the logs explore; then real traffic with feedback.
    await harness.server.runtime.state.configs.put(merchantId, 'successRate', { defaultBucketSize: 20, defaultHedgingPercent: 20 }, 'upsert');
    const random = seededRandom(17);
    for (let index = 0; index < decisions; index += 1) {
      const paymentId = `cf-browser-${index}`;
      const decided = await api('/decide-gateway', token, decideBody(merchantId, paymentId));
      expect(decided.status).toBe(200);
      const gateway = ((await decided.json()) as { decided_gateway: string }).decided_gateway;
      const status = random() < (trueRates[gateway] ?? 0) ? 'CHARGED' : 'AUTHORIZATION_FAILED';
      expect((await api('/update-gateway-score', token, { merchantId, gateway, paymentId, status })).status).toBe(200);
    }
    // The analytics sink writes in the background: wait until every decision has its outcome there.
    const request = { range: '1h', hedging_percent: 0 };
    await expect
      .poll(async () => ((await (await api('/analytics/counterfactual', token, request)).json()) as { labelled: number }).labelled, { timeout: 60_000 })
      .toBe(decisions);
    const answer = (await (await api('/analytics/counterfactual', token, request)).json()) as {
      supported: boolean;
      recommended: { estimator: string; value: number; ci95_low: number; ci95_high: number } | null;
      explanation: string | null;
    };
    expect(answer.supported).toBe(true);
    expect(answer.recommended?.estimator).toBe('doubly_robust');

    await page.goto('/dashboard/#/autopilot');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const panel = page.getByRole('region', { name: 'Evaluate a configuration' });
    await panel.getByLabel('Hedging (%)').fill('0');
    await panel.getByLabel('Decisions from the last').selectOption('1h');
    await panel.getByRole('button', { name: 'Estimate' }).click();
    const recommended = panel.getByTestId('counterfactual-recommended');
    await recommended.waitFor();
    const recommendation = answer.recommended as NonNullable<typeof answer.recommended>;
    expect(await recommended.getByTestId('counterfactual-recommended-value').textContent()).toBe(percent(recommendation.value));
    expect(await recommended.getByTestId('counterfactual-recommended-interval').textContent()).toBe(
      `${percent(recommendation.ci95_low)} – ${percent(recommendation.ci95_high)}`,
    );
    expect(await recommended.textContent()).toContain('doubly robust');
    const sentence = await recommended.getByTestId('counterfactual-explanation').textContent();
    expect(sentence).toBe(answer.explanation);
    expect(sentence).toMatch(/^Doubly robust: .*(agree within their noise|differ by more than their noise explains)/);
    // Every estimator stays visible beside the recommendation.
    expect(await panel.getByRole('table').getByRole('row').count()).toBe(4);
    await screenshot(page, 'autopilot-counterfactual-1280');
    expect(await seriousViolations(page)).toEqual([]);

    // An elimination threshold changes nothing feedback can move: the observed rate, and why.
    await panel.getByLabel('Hedging (%)').fill('');
    await panel.getByLabel('Elimination threshold (0 to 1)').fill('0.9');
    await panel.getByRole('button', { name: 'Estimate' }).click();
    const observed = panel.getByTestId('counterfactual-explanation').filter({ hasText: 'elimination score' });
    await observed.waitFor();
    expect(await observed.textContent()).toMatch(/success and failure feedback never move a gateway’s elimination score/);
    expect(await recommended.textContent()).toContain('observed');
    expect(problems).toEqual([]);
  });
});
