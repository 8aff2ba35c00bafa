import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsEngines, openAnalyticsStore } from '../../helpers/analytics-engines.js';
import { mapEventsToAnalyticsRows } from '../../../src/analytics/map-event-to-rows.js';
import { parseAnalyticsQuery } from '../../../src/analytics/parse-analytics-query.js';
import { createEvent, type EventEnvelope } from '../../../src/events/event-envelope.js';
import type { AnalyticsStore } from '../../../src/ports/analytics-store.js';

/**
 * The cost-savings read (src/adapters/clickhouse/sql/cost-savings-sql.ts) gives the same answer on
 * the ClickHouse server (18.16 dialect) and on chDB, from decision rows as the sink writes them:
 * the `multiObjective` mark read from `details` even when a gateway named `outcome`/`savedValue`
 * comes first in the priority map and the experiment and policy objects carry look-alike keys; a
 * batch inserted twice counted once; other merchants, other flows and unmarked decisions left out.
 */

const hourMs = 3_600_000;
const firstHour = Date.UTC(2026, 2, 10, 10, 0, 0);
const now = firstHour + 2 * hourMs;
const merchant = 'm-savings-reads';

/** `net`/`lost` absent: a mark written before the net figures existed. */
type Mark = { outcome: 'COST_WON' | 'AUTH_WON'; saved: number | null; amount: number; net?: number; lost?: number } | null;

function decision(
  paymentId: string,
  atMs: number,
  currency: string,
  mark: Mark,
  options: { merchantId?: string; cardNetwork?: string; gateway?: string } = {},
): EventEnvelope {
  const amount = mark?.amount ?? 100;
  const payload: Record<string, unknown> = {
    experiment: {
      experimentId: 'exp-x',
      experimentArm: 'variant',
      armAlgorithmId: 'sr_routing',
      guardrailTripped: false,
      chosenCostBps: 999,
      costSavedBps: 999,
    },
    paymentId,
    requestId: null,
    gateway: options.gateway ?? 'adyen',
    routingApproach: mark?.outcome === 'COST_WON' ? 'SR_SELECTION_MULTI_OBJECTIVE' : 'SR_SELECTION_V3_ROUTING',
    // Gateways named like the mark's keys, written before it: they must not shadow it.
    gatewayPriorityMap: { outcome: 1, savedValue: 77, netValue: 55, approvalsLost: 9, adyen: 1 },
    rankingAlgorithm: 'SR_BASED_ROUTING',
    eliminationEnabled: false,
    latencyMs: 3,
    payment: {
      paymentMethodType: 'CARD',
      paymentMethod: 'CREDIT',
      cardNetwork: options.cardNetwork ?? 'VISA',
      cardIsIn: null,
      currency,
      country: 'US',
      authType: null,
      amount,
    },
    windowDimension: null,
    eliminationDimension: 'x',
  };
  if (mark !== null) {
    payload['multiObjective'] = {
      outcome: mark.outcome,
      srHead: 'stripe',
      chosen: mark.outcome === 'COST_WON' ? 'adyen' : 'stripe',
      chosenCostBps: 200,
      costSavedBps: mark.saved,
      savedValue: mark.saved === null ? 0 : (amount * mark.saved) / 10_000,
      ...(mark.net === undefined ? {} : { netValue: mark.net, approvalsLost: mark.lost ?? 0 }),
    };
  }
  payload['policy'] = {
    propensity: 1,
    hedged: false,
    candidates: [{ gateway: 'adyen', score: 1, eliminationScore: null }],
    hedgingPercent: 0,
    bucketSize: 20,
    eliminationThreshold: null,
    eliminationDivisor: 1,
    multiObjective: mark !== null,
  };
  return createEvent('decision.created', options.merchantId ?? merchant, payload as never, atMs);
}

const events: EventEnvelope[] = [
  // 10:xx: USD 100 bps of 100 and 200 (1 + 2 saved), EUR 50 bps of 400 (2 saved), a USD cost-won with no saving.
  // Net of lost approvals: USD 0.4 − 0.5 (p4's mark is older and has no net figures), EUR 1.
  decision('p1', firstHour + 60_000, 'USD', { outcome: 'COST_WON', saved: 100, amount: 100, net: 0.4, lost: 0.05 }),
  decision('p2', firstHour + 120_000, 'USD', { outcome: 'COST_WON', saved: 100, amount: 200, net: -0.5, lost: 0.1 }, { cardNetwork: 'MASTERCARD' }),
  decision('p3', firstHour + 180_000, 'EUR', { outcome: 'COST_WON', saved: 50, amount: 400, net: 1, lost: 0.03 }),
  decision('p4', firstHour + 240_000, 'USD', { outcome: 'COST_WON', saved: 0, amount: 100 }),
  // 11:xx: USD 3 saved (1.2 net), an AUTH_WON, a decision without the step (not counted).
  decision('p5', firstHour + hourMs + 60_000, 'USD', { outcome: 'COST_WON', saved: 150, amount: 200, net: 1.2, lost: 0.02 }),
  decision('p6', firstHour + hourMs + 120_000, 'USD', { outcome: 'AUTH_WON', saved: null, amount: 300 }, { gateway: 'stripe' }),
  decision('p7', firstHour + hourMs + 180_000, 'USD', null),
  // Another merchant; a decision failure row (another flow) of ours.
  decision('p8', firstHour + hourMs, 'USD', { outcome: 'COST_WON', saved: 100, amount: 10_000 }, { merchantId: 'm-other' }),
  createEvent(
    'decision.failed',
    merchant,
    { paymentId: 'p9', requestId: null, stage: 'gateway_selection', errorCode: 'x', errorMessage: 'multiObjective' } as never,
    firstHour + 1000,
  ),
];

const parse = (raw: Record<string, string>) => {
  const parsed = parseAnalyticsQuery(raw, { merchantId: merchant, nowMs: now, endpoint: 'cost-savings' });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.query;
};

for (const engine of analyticsEngines) {
  describe(`cost-savings read on ${engine}`, () => {
    let store: AnalyticsStore;
    let teardown: () => Promise<void>;

    beforeAll(async () => {
      ({ store, teardown } = await openAnalyticsStore(engine, 'savings'));
      const rows = mapEventsToAnalyticsRows(events);
      // Twice: a retried batch must count once.
      await store.insert(rows);
      await store.insert(rows);
    }, 60_000);

    afterAll(async () => teardown?.());

    it('sums the top currency per hour, lists currencies by saving decisions', async () => {
      const report = await store.costSavings(parse({ range: '12h' }));
      expect(report).toMatchObject({
        merchant_id: merchant,
        range: '12h',
        currency: 'USD',
        available_currencies: [
          { currency: 'USD', decision_count: 3 },
          { currency: 'EUR', decision_count: 1 },
        ],
        totals: { cost_won_count: 4, total_decisions: 5 },
      });
      expect(report.totals.saved_value).toBeCloseTo(6, 9);
      expect(report.trend.map((point) => point.bucket_ms)).toEqual([firstHour, firstHour + hourMs]);
      expect(report.trend[0]!.saved_value).toBeCloseTo(3, 9);
      expect(report.trend[1]!.saved_value).toBeCloseTo(3, 9);
    });

    it('sums the savings net of expected lost approvals per currency, counting the marks that carry them', async () => {
      const usd = await store.costSavings(parse({ range: '12h' }));
      expect(usd.totals.net_value).toBeCloseTo(1.1, 9);
      expect(usd.totals.approvals_lost).toBeCloseTo(0.17, 9);
      expect(usd.totals.net_known_count).toBe(3);
      expect(usd.trend[0]!.net_value).toBeCloseTo(-0.1, 9);
      expect(usd.trend[1]!.net_value).toBeCloseTo(1.2, 9);
      const eur = await store.costSavings(parse({ range: '12h', currency: 'EUR' }));
      expect(eur.totals).toMatchObject({ net_known_count: 1 });
      expect(eur.totals.net_value).toBeCloseTo(1, 9);
    });

    it('answers the requested currency and applies the other filters to totals and trend only', async () => {
      const eur = await store.costSavings(parse({ range: '12h', currency: 'EUR' }));
      expect(eur).toMatchObject({ currency: 'EUR', totals: { cost_won_count: 1, total_decisions: 1 } });
      expect(eur.totals.saved_value).toBeCloseTo(2, 9);

      const visa = await store.costSavings(parse({ range: '12h', card_network: 'VISA', gateway: 'adyen' }));
      expect(visa.available_currencies).toHaveLength(2);
      expect(visa.totals).toMatchObject({ cost_won_count: 3, total_decisions: 3 });
      expect(visa.totals.saved_value).toBeCloseTo(4, 9);
    });

    it('buckets a custom window by its span', async () => {
      const report = await store.costSavings(parse({ start_ms: String(firstHour + hourMs), end_ms: String(firstHour + 2 * hourMs) }));
      expect(report).toMatchObject({
        range: 'custom',
        available_currencies: [{ currency: 'USD', decision_count: 1 }],
        totals: { cost_won_count: 1, total_decisions: 2 },
      });
      expect(report.trend).toEqual([{ bucket_ms: firstHour + hourMs, saved_value: 3, net_value: 1.2 }]);
    });
  });
}
