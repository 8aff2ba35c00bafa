import type { CostModel } from '../../src/ports/state/cost-model.js';
import type { createManualClock } from '../../src/time/clock.js';
import { createSeededRandom } from './seeded-random.js';
import { decideBody, type TestApp } from './test-app.js';

/** The gateways of the logged traffic, in eligible-list order. */
export const trafficGateways = ['stripe', 'adyen', 'checkout'] as const;

/** Their true success probabilities. */
const successProbability: Readonly<Record<string, number>> = { stripe: 0.85, adyen: 0.6, checkout: 0.7 };

/**
 * Real traffic through the app: `decisions` decide-gateway calls over the three gateways, each
 * followed by its score feedback (CHARGED or FAILURE drawn from the gateway's true rate), one second
 * apart on the manual clock, each learned before the next decision. Returns what happened.
 */
export async function runLoggedTraffic(input: {
  t: TestApp;
  headers: Record<string, string>;
  merchantId: string;
  decisions: number;
  clock: ReturnType<typeof createManualClock>;
  seed: number;
}): Promise<{ successes: number; hedged: number; outcomes: Map<string, boolean>; costModel: CostModel }> {
  const { t, headers, merchantId, clock } = input;
  const random = createSeededRandom(input.seed);
  const outcomes = new Map<string, boolean>();
  let successes = 0;
  let hedged = 0;
  for (let index = 0; index < input.decisions; index += 1) {
    const paymentId = `cf-pay-${index}`;
    const decided = await t.app.inject({
      method: 'POST',
      url: '/decide-gateway',
      headers,
      payload: decideBody(merchantId, paymentId, { eligibleGatewayList: [...trafficGateways] }),
    });
    if (decided.statusCode !== 200) throw new Error(`decide-gateway answered ${decided.statusCode}: ${decided.body}`);
    const answer = decided.json() as { decided_gateway: string; routing_approach: string };
    if (answer.routing_approach.includes('HEDGING')) hedged += 1;
    const success = random.next() < (successProbability[answer.decided_gateway] ?? 0);
    outcomes.set(paymentId, success);
    if (success) successes += 1;
    const feedback = await t.app.inject({
      method: 'POST',
      url: '/update-gateway-score',
      headers,
      payload: { merchantId, gateway: answer.decided_gateway, paymentId, status: success ? 'CHARGED' : 'FAILURE' },
    });
    if (feedback.statusCode !== 200) throw new Error(`update-gateway-score answered ${feedback.statusCode}: ${feedback.body}`);
    await t.worker.caughtUp();
    clock.advance(1000);
  }
  // checkout is far cheaper: a cost-aware candidate would move payments to it.
  const fee = (connector: string, pctBps: number, fixed: number) => ({ connector, account: 'main', model: { pctBps, fixed }, goodGross: 1000 });
  const costModel: CostModel = {
    connectors: [fee('stripe', 900, 0.3), fee('adyen', 800, 0.3), fee('checkout', 10, 0)],
    clusters: [],
    reportDate: null,
    updatedAt: clock.now(),
  };
  return { successes, hedged, outcomes, costModel };
}
