import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, seriousViolations, signUpWithMerchant, startDashboardHarness, type DashboardHarness } from './dashboard-harness.js';

/**
 * The volume-commitment page's price of the commitments (issue 36): beside the rebate earned, the
 * approval rate steering gave up with its 95 % interval, from POST /analytics/counterfactual's
 * `without_volume_commitment` candidate over the cycle. The real service (embedded mode, real
 * clock and random draws) steers real payments; the page must show what the API answers.
 */

let harness: DashboardHarness;
let context: BrowserContext;
let page: Page;
let problems: string[];
const email = `vc-price-${Date.now()}@example.com`;
const minuteMs = 60_000;

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
    eligibleGatewayList: ['stripe', 'adyen'],
    rankingAlgorithm: 'SR_BASED_ROUTING',
    eliminationEnabled: false,
    paymentInfo: { paymentId, amount: 100, currency: 'USD', country: 'US', paymentType: 'ORDER_PAYMENT', paymentMethodType: 'CARD', paymentMethod: 'CREDIT' },
  };
}

/**
 * A `test_minutes` cycle (epoch-aligned, each minute a contract day) with at least 10 minutes left,
 * so the cycle cannot roll over while the test runs, and the cycle's minutes left.
 */
function testCycle(nowMs: number): { minutes: number; minutesLeft: number } {
  for (let minutes = 240; minutes > 20; minutes--) {
    const length = minutes * minuteMs;
    const left = length - (nowMs % length);
    if (left >= 10 * minuteMs) return { minutes, minutesLeft: Math.floor(left / minuteMs) };
  }
  throw new Error('no test cycle with 10 minutes left');
}

beforeAll(async () => {
  harness = await startDashboardHarness();
  ({ context, page, problems } = await harness.newPage(1280, 900));
});

afterAll(async () => {
  await context?.close();
  await harness?.close();
});

describe('the volume-commitment page', () => {
  it('shows the approval rate steering gave up, with its interval, beside the rebate earned', async () => {
    const { token, merchantId } = await signUpWithMerchant(page, { email, merchantName: 'Commitment Shop' });

    // adyen is owed 90 % of the traffic expected for the rest of the cycle: the plan steers nearly every SR payment to it.
    const expected = 1_000_000;
    const { minutes, minutesLeft } = testCycle(Date.now());
    const contract = {
      routing_mode: 'pace_guarded',
      tolerance_bps: 500,
      currency: { denomination: 'USD' },
      expected_daily_traffic: expected,
      volume_contracts: [
        {
          id: 'adyen_test',
          connector: 'adyen',
          billing_cycle: { type: 'test_minutes', anchor: minutes, timezone: 'UTC' },
          archetype: 'lumpsum',
          terms: { target: Math.floor(expected * minutesLeft * 0.9), reward: { kind: 'flat', value: { flat_amount: 40_000 } } },
        },
      ],
    };
    const created = await api('/routing/create', token, { name: 'test cycle', created_by: merchantId, algorithm: { type: 'volume_contract', data: contract } });
    expect(created.status, await created.clone().text()).toBe(200);
    const ruleId = ((await created.json()) as { rule_id: string }).rule_id;
    expect((await api('/routing/activate', token, { created_by: merchantId, routing_algorithm_id: ruleId })).status).toBe(200);
    expect((await api(`/merchant-account/${merchantId}/features/volume-contracts`, token, { enabled: true })).status).toBe(200);

    // Ten payments before any plan (normal routing), then the forecast, then twenty that steering may move.
    const decided: { paymentId: string; gateway: string; approach: string }[] = [];
    const decide = async (index: number) => {
      const paymentId = `vc-price-${index}`;
      const response = await api('/decide-gateway', token, decideBody(merchantId, paymentId));
      expect(response.status).toBe(200);
      const body = (await response.json()) as { decided_gateway: string; routing_approach: string };
      decided.push({ paymentId, gateway: body.decided_gateway, approach: body.routing_approach });
    };
    for (let index = 0; index < 10; index++) await decide(index);
    const forecast = await fetch(`${harness.url}/volume-commitment/run-forecast?merchant_id=${merchantId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(forecast.status).toBe(200);
    for (let index = 10; index < 30; index++) await decide(index);
    const steered = decided.filter((entry) => entry.approach === 'SR_SELECTION_VOLUME_COMMITMENT');
    expect(steered.length).toBeGreaterThan(5);
    // Outcomes after every decision (so no score moves the head meanwhile): every payment approved but half the steered ones.
    let steeredSeen = 0;
    for (const { paymentId, gateway, approach } of decided) {
      const failed = approach === 'SR_SELECTION_VOLUME_COMMITMENT' && steeredSeen++ % 2 === 0;
      const feedback = await api('/update-gateway-score', token, { merchantId, gateway, paymentId, status: failed ? 'FAILURE' : 'CHARGED' });
      expect(feedback.status).toBe(200);
    }

    // The analytics sink writes in the background: wait until the estimate rests on all thirty outcomes.
    const estimate = async () => {
      const response = await api('/analytics/counterfactual', token, { range: '1h', candidate: 'without_volume_commitment' });
      return (await response.json()) as {
        labelled: number;
        moved_labelled: number;
        rate_given_up: { value: number; ci95_low: number; ci95_high: number } | null;
      };
    };
    await expect.poll(async () => (await estimate()).labelled, { timeout: 20_000 }).toBe(30);
    const answer = await estimate();
    expect(answer.moved_labelled).toBe(steered.length);
    expect(answer.rate_given_up?.value).toBeGreaterThan(0);

    const requested = page.waitForRequest((request) => request.url().endsWith('/analytics/counterfactual') && request.method() === 'POST');
    await page.goto('/dashboard/#/volume-commitments');
    const card = page.getByTestId('volume-commitment');
    await card.waitFor();
    const body = JSON.parse((await requested).postData() ?? '{}') as { candidate?: string; start_ms?: number; end_ms?: number };
    expect(body.candidate).toBe('without_volume_commitment');
    expect(body.end_ms! - body.start_ms!).toBe(minutes * minuteMs);

    const price = card.getByTestId('vc-price');
    await price.getByRole('heading', { name: 'What the commitments earn and cost' }).waitFor();
    expect(await price.getByTestId('vc-earned').textContent()).toBe('0 USD of 400 USD at stake');
    const givenUp = price.getByTestId('vc-given-up');
    await givenUp.getByText(/of them steered/).waitFor();
    const pp = (fraction: number) => `${(fraction * 100).toFixed(2)} pp`;
    const rate = answer.rate_given_up!;
    expect(await givenUp.textContent()).toBe(
      `${pp(rate.value)} (95 % interval ${pp(rate.ci95_low)} to ${pp(rate.ci95_high)}) over 30 payments with an outcome, ${steered.length} of them steered; the router expected 0.00 pp.`,
    );
    await screenshot(page, 'volume-commitments-price-1280');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
