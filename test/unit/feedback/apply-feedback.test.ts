import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SwitchyardError } from '../../../src/errors/switchyard-error.js';
import { createEvent, type EventEnvelope } from '../../../src/events/event-envelope.js';
import { applyFeedback, recordDecision, type ApplyFeedbackResult } from '../../../src/feedback/apply-feedback.js';
import type { DecisionCreatedV1, FeedbackReceivedV1, PaymentDimensions } from '../../../src/generated/schema-types.js';
import type { ConfigName, ConfigStore, MerchantConfigs, ScoreStore } from '../../../src/ports/state-store.js';
import { decideGateway } from '../../../src/decision/decide-gateway.js';
import { eliminationDimensionOf, eliminationKeyOf } from '../../../src/decision/elimination-key.js';
import { createSequenceRandom } from '../../../src/decision/random-source.js';
import { defaultRoutingDefaults } from '../../../src/decision/routing-defaults.js';
import { windowDimensionOf, windowKeyFor } from '../../../src/decision/window-key.js';
import { type Clock, createManualClock } from '../../../src/time/clock.js';
import { memoryStateStore } from '../../helpers/memory-state-store.js';

const t0 = 1_700_000_000_000;
const merchantId = 'm1';
const upi: PaymentDimensions = {
  orderType: 'ORDER_PAYMENT',
  paymentMethodType: 'UPI',
  paymentMethod: 'UPI_PAY',
  cardType: null,
  cardNetwork: null,
  cardIsIn: null,
  currency: 'INR',
  country: 'IN',
  authType: null,
  amount: 100,
};
const windowDimension = windowDimensionOf(merchantId, upi, null, undefined);
const eliminationDimension = eliminationDimensionOf({ merchantId, ...upi });

/** Writes the merchant's configs through the port, as the config routes do. */
async function putConfigs(configs: ConfigStore, values: Partial<MerchantConfigs>): Promise<void> {
  for (const name of Object.keys(values) as ConfigName[]) {
    const value = values[name];
    if (value !== undefined) await configs.put(merchantId, name, value, 'upsert');
  }
}

function decisionEvent(paymentId: string, overrides: Partial<DecisionCreatedV1> = {}, at = t0): EventEnvelope<'decision.created'> {
  return createEvent(
    'decision.created',
    merchantId,
    {
      paymentId,
      requestId: null,
      gateway: 'stripe',
      routingApproach: 'SR_SELECTION_V3_ROUTING',
      gatewayPriorityMap: { stripe: 1, adyen: 1 },
      rankingAlgorithm: 'SR_BASED_ROUTING',
      eliminationEnabled: true,
      latencyMs: 1,
      payment: upi,
      windowDimension,
      eliminationDimension,
      ...overrides,
    },
    at,
  );
}

function feedbackEvent(paymentId: string, status: string, overrides: Partial<FeedbackReceivedV1> = {}, at = t0 + 1_000): EventEnvelope<'feedback.received'> {
  return createEvent(
    'feedback.received',
    merchantId,
    {
      paymentId,
      gateway: 'stripe',
      status,
      outcome: 'failure',
      enforceDynamicRoutingFailure: false,
      gatewayLatencyMs: null,
      requestId: null,
      source: 'update_gateway_score',
      ...overrides,
    },
    at,
  );
}

/** The embedded adapter's score and config stores; the two score writes are watched so tests can check that nothing was written. */
function memoryStores(clock: Clock): { scores: ScoreStore; configs: ConfigStore } {
  const { scores, configs } = memoryStateStore(clock);
  vi.spyOn(scores, 'recordOutcome');
  vi.spyOn(scores, 'applyElimination');
  return { scores, configs };
}

function expectNoWrites(scores: ScoreStore): void {
  expect(scores.recordOutcome).not.toHaveBeenCalled();
  expect(scores.applyElimination).not.toHaveBeenCalled();
}

/** A window's outcomes, newest first, read back through the port: reading the newest 1, 2, … n gives each one. */
async function windowOutcomes(scores: ScoreStore, key: string): Promise<number[] | undefined> {
  const [all] = await scores.readWindows([key], Number.MAX_SAFE_INTEGER);
  if (all === undefined) return undefined;
  const outcomes: number[] = [];
  let before = 0;
  for (let size = 1; size <= all.length; size += 1) {
    const [read] = await scores.readWindows([key], size);
    outcomes.push(read!.successes - before);
    before = read!.successes;
  }
  return outcomes;
}

async function eliminationOf(scores: ScoreStore, key: string) {
  return (await scores.readEliminations([key]))[0];
}

/** Brings an elimination score to 0.5 over 3 transactions, last updated at t0, through the port; then forgets those calls. */
async function seedElimination(scores: ScoreStore, key: string): Promise<void> {
  for (const [index, factor] of [0.5, 1, 1].entries()) {
    await scores.applyElimination({
      key,
      factor,
      countsTransaction: true,
      nowMs: t0,
      ttlMs: 86_400_000,
      dedupeKey: `seed:${key}:${index}`,
      dedupeTtlSeconds: 60,
    });
  }
  vi.mocked(scores.applyElimination).mockClear();
}

function expectKind<K extends ApplyFeedbackResult['kind']>(result: ApplyFeedbackResult, kind: K): Extract<ApplyFeedbackResult, { kind: K }> {
  expect(result.kind).toBe(kind);
  return result as Extract<ApplyFeedbackResult, { kind: K }>;
}

describe('applyFeedback', () => {
  let scores: ScoreStore;
  let configs: ConfigStore;
  let clock: ReturnType<typeof createManualClock>;
  const stripeWindow = windowKeyFor(windowDimension, 'stripe');
  const stripeElimination = eliminationKeyOf({ merchantId, ...upi }, 'stripe');

  beforeEach(() => {
    clock = createManualClock(t0 + 2_000);
    ({ scores, configs } = memoryStores(clock));
  });

  const deps = () => ({ scores, configs, clock, defaults: defaultRoutingDefaults });
  const decide = (paymentId: string, overrides: Partial<DecisionCreatedV1> = {}, at = t0) =>
    recordDecision(decisionEvent(paymentId, overrides, at), { scores, defaults: defaultRoutingDefaults });

  it('returns no_decision and changes nothing when the payment has no decision', async () => {
    const result = await applyFeedback(feedbackEvent('pay_unknown', 'FAILURE'), deps());
    expect(result).toEqual({ kind: 'no_decision' });
    expectNoWrites(scores);
  });

  it('scores 0.992 after one failure on a fresh window of the default 125', async () => {
    await decide('pay_1');
    const result = expectKind(await applyFeedback(feedbackEvent('pay_1', 'FAILURE'), deps()), 'applied');
    expect(result.scoringType).toBe('penalise_srv3');
    expect(result.snapshot.scoreValue).toBe(0.992);
    expect(result.snapshot.bucketSize).toBe(125);
  });

  it('scores 0.9 after one failure when the merchant configures a window of 10', async () => {
    await putConfigs(configs, { successRate: { defaultBucketSize: 10 } });
    await decide('pay_1');
    const result = expectKind(await applyFeedback(feedbackEvent('pay_1', 'FAILURE'), deps()), 'applied');
    expect(result.snapshot).toEqual({
      paymentId: 'pay_1',
      gateway: 'stripe',
      status: 'FAILURE',
      scoringType: 'penalise_srv3',
      scoreValue: 0.9,
      bucketSize: 10,
      eliminationScore: null,
      payment: upi,
      feedbackEventId: result.snapshot.feedbackEventId,
    });
    expect(await windowOutcomes(scores, stripeWindow)).toEqual([0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('scores 0.995 after one failure when the merchant configures a window of 200', async () => {
    await putConfigs(configs, { successRate: { defaultBucketSize: 200 } });
    await decide('pay_1');
    const result = expectKind(await applyFeedback(feedbackEvent('pay_1', 'FAILURE'), deps()), 'applied');
    expect(result.snapshot.scoreValue).toBe(0.995);
  });

  it('scores 0.5 after five failures on five payments with window 10 and hedging 50', async () => {
    await putConfigs(configs, { successRate: { defaultBucketSize: 10, defaultHedgingPercent: 50 } });
    let last: ApplyFeedbackResult | undefined;
    for (let index = 1; index <= 5; index += 1) {
      await decide(`pay_${index}`);
      last = await applyFeedback(feedbackEvent(`pay_${index}`, 'FAILURE'), deps());
    }
    expect(expectKind(last as ApplyFeedbackResult, 'applied').snapshot.scoreValue).toBe(0.5);
  });

  it('counts the same feedback twice only once', async () => {
    await putConfigs(configs, { successRate: { defaultBucketSize: 10 } });
    await decide('pay_1');
    const first = expectKind(await applyFeedback(feedbackEvent('pay_1', 'FAILURE'), deps()), 'applied');
    const resent = feedbackEvent('pay_1', 'FAILURE', {}, t0 + 5_000);
    const second = expectKind(await applyFeedback(resent, deps()), 'duplicate');
    expect(first.snapshot.scoreValue).toBe(0.9);
    expect(second.snapshot.scoreValue).toBe(0.9);
    expect(second.snapshot.feedbackEventId).toBe(resent.id);
    expect(await windowOutcomes(scores, stripeWindow)).toEqual([0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    // The dedupe mark is set: the same key applies nothing again.
    const probe = {
      windowKey: stripeWindow,
      outcome: 0 as const,
      bucketSize: 10,
      dedupeKey: 'm1:pay_1:stripe:penalise_srv3',
      dedupeTtlSeconds: 60,
      windowTtlSeconds: 60,
    };
    expect((await scores.recordOutcome(probe)).applied).toBe(false);
  });

  it('counts a redelivered reward once in both the window and the elimination score', async () => {
    await seedElimination(scores, stripeElimination);
    await decide('pay_1');
    const event = feedbackEvent('pay_1', 'CHARGED');
    expectKind(await applyFeedback(event, deps()), 'applied');
    const again = expectKind(await applyFeedback(event, deps()), 'duplicate');
    expect(again.snapshot.eliminationScore).toBeCloseTo(0.5263, 10);
    expect((await eliminationOf(scores, stripeElimination))?.score).toBeCloseTo(0.5263, 10);
    expect((await windowOutcomes(scores, stripeWindow))?.length).toBe(125);
  });

  it('rewards the window and multiplies the elimination score by 1.0526', async () => {
    await seedElimination(scores, stripeElimination);
    await decide('pay_1');
    const result = expectKind(await applyFeedback(feedbackEvent('pay_1', 'CHARGED'), deps()), 'applied');
    expect(result).toMatchObject({ scoringType: 'reward', windowApplied: true, eliminationApplied: true });
    expect(result.snapshot.scoreValue).toBe(1);
    expect(result.snapshot.eliminationScore).toBeCloseTo(0.5263, 10);
    expect(await eliminationOf(scores, stripeElimination)).toEqual({ score: result.snapshot.eliminationScore, transactionCount: 3, updatedAt: clock.now() });
    // The dedupe mark is set: the same key applies nothing again.
    const probe = {
      key: stripeElimination,
      factor: 0.5,
      countsTransaction: true,
      nowMs: clock.now(),
      ttlMs: 86_400_000,
      dedupeKey: 'm1:pay_1:stripe:reward:elimination',
      dedupeTtlSeconds: 60,
    };
    expect((await scores.applyElimination(probe)).applied).toBe(false);
  });

  it('caps a rewarded elimination score at 1', async () => {
    await decide('pay_1');
    const result = expectKind(await applyFeedback(feedbackEvent('pay_1', 'CHARGED'), deps()), 'applied');
    expect(result.snapshot.eliminationScore).toBe(1);
  });

  it('leaves elimination scores alone when the decision had elimination off', async () => {
    await decide('pay_1', { eliminationEnabled: false });
    const result = expectKind(await applyFeedback(feedbackEvent('pay_1', 'CHARGED'), deps()), 'applied');
    expect(result).toMatchObject({ windowApplied: true, eliminationApplied: false });
    expect(result.snapshot.eliminationScore).toBeNull();
    expect(scores.applyElimination).not.toHaveBeenCalled();
  });

  it('leaves the elimination score alone on an SR failure', async () => {
    await decide('pay_1');
    expectKind(await applyFeedback(feedbackEvent('pay_1', 'AUTHORIZATION_FAILED'), deps()), 'applied');
    expect(scores.applyElimination).not.toHaveBeenCalled();
  });

  it.each(['PENDING_VBV', 'STARTED'])('penalises only the elimination score by 5 %% for a pending %s', async (status) => {
    await decide('pay_1');
    const result = expectKind(await applyFeedback(feedbackEvent('pay_1', status), deps()), 'applied');
    expect(result).toMatchObject({ scoringType: 'penalise', windowApplied: false, eliminationApplied: true });
    expect(result.snapshot.scoreValue).toBeNull();
    expect(result.snapshot.eliminationScore).toBe(0.95);
    expect((await eliminationOf(scores, stripeElimination))?.transactionCount).toBe(1);
    expect(scores.recordOutcome).not.toHaveBeenCalled();
  });

  it.each(['PENDING', 'AUTHORIZING', 'DECLINED', 'NOP', 'VBV_SUCCESSFUL'])('changes nothing for a pending %s within the latency threshold', async (status) => {
    await decide('pay_1');
    const result = await applyFeedback(feedbackEvent('pay_1', status), deps());
    expect(result).toEqual({ kind: 'unchanged', scoringType: 'penalise', reason: 'no_effect' });
    expectNoWrites(scores);
  });

  it('changes nothing for a pending penalty when the decision had elimination off', async () => {
    await decide('pay_1', { eliminationEnabled: false });
    const result = await applyFeedback(feedbackEvent('pay_1', 'PENDING_VBV'), deps());
    expect(result).toEqual({ kind: 'unchanged', scoringType: 'penalise', reason: 'no_effect' });
  });

  it('counts a pending status past the latency threshold as an SR failure', async () => {
    await putConfigs(configs, { successRate: { defaultBucketSize: 10 } });
    await decide('pay_1');
    const result = expectKind(await applyFeedback(feedbackEvent('pay_1', 'PENDING', {}, t0 + 90_000), deps()), 'applied');
    expect(result.scoringType).toBe('penalise_srv3');
    expect(result.snapshot.scoreValue).toBe(0.9);
  });

  it('ignores a reward arriving 10 minutes after the decision', async () => {
    await decide('pay_1');
    const result = await applyFeedback(feedbackEvent('pay_1', 'CHARGED', {}, t0 + 600_000), deps());
    expect(result).toEqual({ kind: 'unchanged', scoringType: 'reward', reason: 'outside_update_window' });
    expectNoWrites(scores);
  });

  it('ignores a failure arriving 10 minutes after the decision', async () => {
    await decide('pay_1');
    const result = await applyFeedback(feedbackEvent('pay_1', 'FAILURE', {}, t0 + 600_000), deps());
    expect(result).toEqual({ kind: 'unchanged', scoringType: 'penalise_srv3', reason: 'outside_update_window' });
  });

  it('applies late feedback on a recurring mandate payment', async () => {
    await decide('pay_1', { payment: { ...upi, orderType: 'MANDATE_PAYMENT' } });
    const result = await applyFeedback(feedbackEvent('pay_1', 'FAILURE', {}, t0 + 1_500_000), deps());
    expect(result.kind).toBe('applied');
  });

  it('never gates a pending penalty by the update window', async () => {
    await putConfigs(configs, { successRate: { defaultLatencyThreshold: 3_600 } });
    await decide('pay_1');
    const result = expectKind(await applyFeedback(feedbackEvent('pay_1', 'STARTED', {}, t0 + 1_200_000), deps()), 'applied');
    expect(result.scoringType).toBe('penalise');
  });

  it('ignores a reward whose gateway latency exceeds the merchant elimination limit', async () => {
    await putConfigs(configs, { elimination: { threshold: 0.35, txnLatency: { gatewayLatency: 5_000 } } });
    await decide('pay_1');
    const result = await applyFeedback(feedbackEvent('pay_1', 'CHARGED', { gatewayLatencyMs: 5_001 }), deps());
    expect(result).toEqual({ kind: 'unchanged', scoringType: 'reward', reason: 'latency_above_limit' });
  });

  it('applies a reward whose gateway latency is within the merchant elimination limit', async () => {
    await putConfigs(configs, { elimination: { threshold: 0.35, txnLatency: { gatewayLatency: 5_000 } } });
    await decide('pay_1');
    const result = await applyFeedback(feedbackEvent('pay_1', 'CHARGED', { gatewayLatencyMs: 4_000 }), deps());
    expect(result.kind).toBe('applied');
  });

  it('classifies by when the feedback arrived, not by when the worker runs', async () => {
    clock.set(t0 + 86_400_000);
    await decide('pay_1');
    const result = expectKind(await applyFeedback(feedbackEvent('pay_1', 'PENDING_VBV', {}, t0 + 1_000), deps()), 'applied');
    expect(result.scoringType).toBe('penalise');
    expect((await eliminationOf(scores, stripeElimination))?.updatedAt).toBe(t0 + 86_400_000);
  });

  it('updates the window of the gateway named in the feedback, not the decided one', async () => {
    await decide('pay_1');
    expectKind(await applyFeedback(feedbackEvent('pay_1', 'FAILURE', { gateway: 'adyen' }), deps()), 'applied');
    const [adyen, stripe] = await scores.readWindows([windowKeyFor(windowDimension, 'adyen'), stripeWindow], 125);
    expect(adyen).toBeDefined();
    expect(stripe).toBeUndefined();
  });

  it('re-resolves the bucket size from the sub-level config at feedback time', async () => {
    await decide('pay_1');
    await putConfigs(configs, {
      successRate: {
        defaultBucketSize: 50,
        subLevelInputConfig: [{ paymentMethodType: 'UPI', paymentMethod: 'UPI_PAY', bucketSize: 20 }],
      },
    });
    const result = expectKind(await applyFeedback(feedbackEvent('pay_1', 'FAILURE'), deps()), 'applied');
    expect(result.snapshot).toMatchObject({ bucketSize: 20, scoreValue: 0.95 });
  });

  it('uses the latest decision when a payment id is decided twice', async () => {
    await decide('pay_1', {}, t0);
    await decide('pay_1', {}, t0 + 700_000);
    const result = await applyFeedback(feedbackEvent('pay_1', 'FAILURE', {}, t0 + 701_000), deps());
    expect(result.kind).toBe('applied');
  });

  it('changes nothing for a network-routing decision with no window and elimination off', async () => {
    await decide('pay_1', { windowDimension: null, eliminationEnabled: false });
    const result = await applyFeedback(feedbackEvent('pay_1', 'FAILURE'), deps());
    expect(result).toEqual({ kind: 'unchanged', scoringType: 'penalise_srv3', reason: 'no_effect' });
  });

  it('throws and writes nothing when the stored elimination dimension belongs to another merchant', async () => {
    await decide('pay_1', { eliminationDimension: 'gw_score_other_ORDER_PAYMENT_UPI_UPI_PAY' });
    const failure = await applyFeedback(feedbackEvent('pay_1', 'CHARGED'), deps()).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(SwitchyardError.isInstance(failure) && failure.code).toBe('SY_EVENT_INVALID');
    expectNoWrites(scores);
  });

  it('takes 21 pending penalties to bring a fresh elimination score below 0.35', async () => {
    let score = 1;
    for (let index = 1; index <= 21; index += 1) {
      await decide(`pay_${index}`);
      const result = expectKind(await applyFeedback(feedbackEvent(`pay_${index}`, 'PENDING_VBV'), deps()), 'applied');
      score = result.snapshot.eliminationScore as number;
      if (index === 20) expect(score).toBeGreaterThanOrEqual(0.35);
    }
    expect(score).toBeLessThan(0.35);
    expect((await eliminationOf(scores, stripeElimination))?.transactionCount).toBe(21);
  });
});

describe('feedback seen by the next decision', () => {
  it('lowers the failed gateway so the next decision prefers the other one', async () => {
    const clock = createManualClock(t0);
    const { scores, configs } = memoryStores(clock);
    await putConfigs(configs, { successRate: { defaultBucketSize: 10 } });
    const request = {
      merchantId,
      eligibleGatewayList: ['stripe', 'adyen'],
      rankingAlgorithm: 'SR_BASED_ROUTING' as const,
      paymentInfo: {
        paymentId: 'pay_1',
        amount: 100,
        currency: 'INR',
        paymentType: 'ORDER_PAYMENT' as const,
        paymentMethodType: 'upi',
        paymentMethod: 'UPI_PAY',
      },
    };
    const inputs = {
      merchant: { merchantId, merchantName: null, deciderInput: null, createdAt: t0 },
      successRate: { defaultBucketSize: 10 },
      elimination: undefined,
      srDimension: undefined,
      debitRoutingEnabled: false,
    };
    const decideDeps = { scores, random: createSequenceRandom([0.99, 0.99]), clock, defaults: defaultRoutingDefaults };

    const first = await decideGateway(request, inputs, decideDeps);
    if (!first.ok) throw new Error('expected a decision');
    expect(first.decision.decidedGateway).toBe('stripe');
    const decision = first.decision;
    await recordDecision(
      createEvent(
        'decision.created',
        merchantId,
        {
          paymentId: 'pay_1',
          requestId: null,
          gateway: decision.decidedGateway,
          routingApproach: decision.routingApproach,
          gatewayPriorityMap: decision.gatewayPriorityMap === null ? null : { ...decision.gatewayPriorityMap },
          rankingAlgorithm: 'SR_BASED_ROUTING',
          eliminationEnabled: decision.eliminationEnabled,
          latencyMs: 0,
          payment: decision.payment,
          windowDimension: decision.windowDimension,
          eliminationDimension: decision.eliminationDimension,
        },
        decision.decidedAt,
      ),
      { scores, defaults: defaultRoutingDefaults },
    );
    await applyFeedback(feedbackEvent('pay_1', 'FAILURE', {}, t0 + 1_000), { scores, configs, clock, defaults: defaultRoutingDefaults });

    const second = await decideGateway({ ...request, paymentInfo: { ...request.paymentInfo, paymentId: 'pay_2' } }, inputs, decideDeps);
    if (!second.ok) throw new Error('expected a decision');
    expect(second.decision.decidedGateway).toBe('adyen');
    expect(second.decision.gatewayPriorityMap).toEqual({ stripe: 0.9, adyen: 1 });
  });
});
