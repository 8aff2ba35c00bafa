import type { EventEnvelope, EventPayloads, EventType } from '../../../src/events/event-envelope.js';
import type { GuardAppliedV1, LlmCallV1, PaymentDimensions } from '../../../src/generated/schema-types.js';

/** The clock of every query in the suite: 2026-11-20 12:00:00 UTC. */
export const now = Date.UTC(2026, 10, 20, 12, 0, 0);
/** 11:10 UTC, fifty minutes before `now`: the first event of the fixture. */
export const t0 = now - 50 * 60_000;
export const merchantId = 'm_analytics';
export const otherMerchantId = 'm_other';

/** A payment id built to break naive SQL: quotes, a backslash, comment markers, a newline, NUL, unicode and emoji. */
export const hostilePaymentId = 'pay_\'q"\\ -- /* x */ \n\0 é 💳';
export const hostileGateway = "razor'pay";

export function eventId(n: number): string {
  return `01930000-0000-7000-8000-${String(n).padStart(12, '0')}`;
}

/** Event `n` (see {@link eventId}): an `llm.call` at `occurredAt`, a successful gateway call to gpt-4o-mini (100 tokens in, 10 out, 100 ms) unless `payload` says otherwise. */
export function llmCallEvent(n: number, occurredAt: number, merchant: string, payload: Partial<LlmCallV1>): EventEnvelope<'llm.call'> {
  return event(
    n,
    'llm.call',
    occurredAt,
    {
      provider: 'openai',
      model: 'gpt-4o-mini',
      operation: 'generate',
      surface: 'gateway',
      inputTokens: 100,
      outputTokens: 10,
      costUsd: 0.000021,
      latencyMs: 100,
      timeToFirstTokenMs: null,
      outcome: 'success',
      errorClass: null,
      fallbackHops: 0,
      userId: null,
      requestId: null,
      batchId: null,
      jobId: null,
      ...payload,
    },
    merchant,
  );
}

/** Event `n`: a `guard.applied` at `occurredAt`, the card guard masking one match in an OpenAI chat request, unless `payload` says otherwise. */
export function guardAppliedEvent(n: number, occurredAt: number, merchant: string, payload: Partial<GuardAppliedV1>): EventEnvelope<'guard.applied'> {
  return event(
    n,
    'guard.applied',
    occurredAt,
    {
      guard: 'card',
      stage: 'input',
      action: 'mask',
      count: 1,
      score: null,
      blocked: false,
      surface: 'openai-chat',
      requestId: null,
      apiKeyId: null,
      ...payload,
    },
    merchant,
  );
}

function event<K extends EventType>(n: number, type: K, occurredAt: number, payload: EventPayloads[K], merchant = merchantId): EventEnvelope<K> {
  return { id: eventId(n), type, version: 1, occurredAt, merchantId: merchant, payload } as EventEnvelope<K>;
}

export const cardCredit: PaymentDimensions = {
  orderType: 'ORDER_PAYMENT',
  paymentMethodType: 'CARD',
  paymentMethod: 'CREDIT',
  cardType: 'CREDIT',
  cardNetwork: 'VISA',
  cardIsIn: '411111',
  currency: 'USD',
  country: 'US',
  authType: 'THREE_DS',
  amount: 1000,
};
const cardDebit: PaymentDimensions = {
  ...cardCredit,
  paymentMethod: 'DEBIT',
  cardType: 'DEBIT',
  cardNetwork: 'MASTERCARD',
  cardIsIn: null,
  currency: 'EUR',
  country: 'DE',
  authType: 'NO_THREE_DS',
};
const upi: PaymentDimensions = {
  orderType: 'ORDER_PAYMENT',
  paymentMethodType: 'UPI',
  paymentMethod: 'UPI_COLLECT',
  cardType: null,
  cardNetwork: null,
  cardIsIn: null,
  currency: 'INR',
  country: 'IN',
  authType: null,
  amount: 250,
};

function decision(n: number, at: number, paymentId: string, gateway: string, approach: string, payment: PaymentDimensions, merchant = merchantId) {
  return event(
    n,
    'decision.created',
    at,
    {
      paymentId,
      requestId: `req_decide_${n}`,
      gateway,
      routingApproach: approach,
      gatewayPriorityMap: { [gateway]: 1 },
      rankingAlgorithm: 'SR_BASED_ROUTING',
      eliminationEnabled: false,
      latencyMs: 3,
      payment,
      windowDimension: `${payment.paymentMethodType}:${payment.paymentMethod}`,
      eliminationDimension: payment.paymentMethodType,
    },
    merchant,
  );
}

function apiHit(n: number, at: number, flowType: string, paymentId: string | null, requestId: string, statusCode = 200) {
  const route = { decide_gateway: '/decide-gateway', update_gateway_score: '/update-gateway-score', routing_evaluate: '/routing/evaluate' }[flowType] ?? '/';
  return event(n, 'api.requested', at, {
    requestId,
    flowType,
    apiFlow: flowType === 'routing_evaluate' ? 'rule_based_routing' : 'dynamic_routing',
    route,
    method: 'POST',
    statusCode,
    latencyMs: 4.5,
    paymentId,
    errorCode: statusCode === 200 ? null : 'GATEWAY_NOT_FOUND',
    errorMessage: null,
    userAgent: 'suite/1.0',
  });
}

function feedback(n: number, at: number, paymentId: string, gateway: string, status: string, outcome: 'success' | 'failure') {
  return event(n, 'feedback.received', at, {
    paymentId,
    gateway,
    status,
    outcome,
    enforceDynamicRoutingFailure: false,
    gatewayLatencyMs: null,
    requestId: `req_feedback_${n}`,
    source: 'update_gateway_score',
  });
}

function snapshot(n: number, at: number, paymentId: string, gateway: string, score: number, payment: PaymentDimensions) {
  return event(n, 'score.updated', at, {
    paymentId,
    gateway,
    status: 'CHARGED',
    scoringType: 'reward',
    scoreValue: score,
    bucketSize: 10,
    eliminationScore: null,
    payment,
    feedbackEventId: eventId(n - 1),
  });
}

/** Everything one analytics-sink batch would carry for the scenario the suite asserts. */
export const fixtureEvents: readonly EventEnvelope[] = [
  // pay_1: decided on stripe, charged, scored.
  apiHit(1, t0, 'decide_gateway', 'pay_1', 'req_decide_2'),
  decision(2, t0 + 2, 'pay_1', 'stripe', 'SR_SELECTION_V3_ROUTING', cardCredit),
  apiHit(3, t0 + 60_000, 'update_gateway_score', 'pay_1', 'req_feedback_4'),
  feedback(4, t0 + 60_002, 'pay_1', 'stripe', 'CHARGED', 'success'),
  snapshot(5, t0 + 61_000, 'pay_1', 'stripe', 0.95, cardCredit),
  // pay_2: decided on adyen by priority logic, declined at authentication.
  apiHit(6, t0 + 300_000, 'decide_gateway', 'pay_2', 'req_decide_7'),
  decision(7, t0 + 300_002, 'pay_2', 'adyen', 'PRIORITY_LOGIC', cardDebit),
  apiHit(8, t0 + 360_000, 'update_gateway_score', 'pay_2', 'req_feedback_9'),
  feedback(9, t0 + 360_002, 'pay_2', 'adyen', 'AUTHENTICATION_FAILED', 'failure'),
  snapshot(10, t0 + 361_000, 'pay_2', 'adyen', 0.8, cardDebit),
  // pay_3: stripe again; two snapshots in one 5-minute bucket (the series plots the latest, 0.85).
  decision(11, t0 + 720_000, 'pay_3', 'stripe', 'SR_SELECTION_V3_ROUTING', cardCredit),
  snapshot(12, t0 + 780_000, 'pay_3', 'stripe', 0.9, cardCredit),
  snapshot(13, t0 + 790_000, 'pay_3', 'stripe', 0.85, cardCredit),
  // Two decision failures: one for pay_4, one anonymous with a hostile message.
  apiHit(14, t0 + 1_199_999, 'decide_gateway', 'pay_4', 'req_decide_15', 400),
  event(15, 'decision.failed', t0 + 1_200_000, {
    paymentId: 'pay_4',
    requestId: 'req_decide_15',
    errorCode: 'GATEWAY_NOT_FOUND',
    errorMessage: 'No eligible gateway',
    stage: 'request_failed',
  }),
  event(16, 'decision.failed', t0 + 1_260_000, {
    paymentId: null,
    requestId: 'req_x',
    errorCode: 'INVALID_REQUEST',
    errorMessage: 'It\'s a "bad" \\ request -- /* x */',
    stage: 'request_parse_failed',
  }),
  // A payment whose id and gateway are hostile strings.
  decision(17, t0 + 1_500_000, hostilePaymentId, hostileGateway, 'SR_SELECTION_V3_ROUTING', upi),
  // A rule evaluation (preview-trace).
  apiHit(18, t0 + 1_800_000, 'routing_evaluate', null, 'req_eval'),
  // Another merchant, and an event outside the default 1h window.
  decision(19, t0 + 100, 'pay_other', 'stripe', 'SR_SELECTION_V3_ROUTING', cardCredit, otherMerchantId),
  decision(20, now - 2 * 3_600_000, 'pay_old', 'stripe', 'SR_SELECTION_V3_ROUTING', cardCredit),
];

/** Three days before `now`: its own daily partition, for the retention test. */
export const oldEvent: EventEnvelope = decision(21, now - 3 * 86_400_000, 'pay_ancient', 'stripe', 'SR_SELECTION_V3_ROUTING', cardCredit);
