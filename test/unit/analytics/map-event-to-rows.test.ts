import { describe, expect, it } from 'vitest';
import { maxDetailsBytes } from '../../../src/ports/analytics/analytics-rows.js';
import { detailsOf, mapEventToRows, mapEventsToAnalyticsRows } from '../../../src/analytics/map-event-to-rows.js';
import type { EventEnvelope } from '../../../src/events/event-envelope.js';
import type { PaymentDimensions } from '../../../src/generated/schema-types.js';
import { SwitchyardError } from '../../../src/errors/switchyard-error.js';

const at = Date.UTC(2026, 10, 20, 11, 0, 0);
const payment: PaymentDimensions = {
  orderType: 'ORDER_PAYMENT',
  paymentMethodType: 'CARD',
  paymentMethod: 'CREDIT',
  cardType: 'CREDIT',
  cardNetwork: 'VISA',
  cardIsIn: '411111',
  currency: 'USD',
  country: null,
  authType: 'THREE_DS',
  amount: 100,
};

function envelope(type: EventEnvelope['type'], payload: unknown, id = '01930000-0000-7000-8000-000000000001'): EventEnvelope {
  return { id, type, version: 1, occurredAt: at, merchantId: 'm1', payload } as EventEnvelope;
}

const emptyRow = {
  global_request_id: '',
  trace_id: '',
  payment_method_type: '',
  payment_method: '',
  card_network: '',
  card_is_in: '',
  currency: '',
  country: '',
  auth_type: '',
  gateway: '',
  event_stage: '',
  routing_approach: '',
  rule_name: '',
  status: '',
  error_code: '',
  error_message: '',
  score_value: null,
  sigma_factor: null,
  average_latency: null,
  tp99_latency: null,
  transaction_count: null,
  route: '',
};

/** A plain SR decision.created payload. */
const decided = {
  paymentId: 'pay_1',
  requestId: 'req_1',
  gateway: 'stripe',
  routingApproach: 'SR_SELECTION_V3_ROUTING',
  gatewayPriorityMap: { stripe: 1, adyen: 0.9 },
  rankingAlgorithm: 'SR_BASED_ROUTING',
  eliminationEnabled: false,
  latencyMs: 3,
  payment,
  windowDimension: 'CARD:CREDIT',
  eliminationDimension: 'CARD',
};

describe('mapEventToRows', () => {
  it('maps decision.created to a decide_gateway_decision row with the payment dimensions', () => {
    expect(mapEventToRows(envelope('decision.created', decided))).toEqual({
      domain: [
        {
          ...emptyRow,
          event_id: '01930000-0000-7000-8000-000000000001',
          merchant_id: 'm1',
          created_at_ms: at,
          api_flow: 'dynamic_routing',
          flow_type: 'decide_gateway_decision',
          summary_kind: 'dynamic',
          payment_id: 'pay_1',
          request_id: 'req_1',
          lookup_key: 'pay_1',
          payment_method_type: 'CARD',
          payment_method: 'CREDIT',
          card_network: 'VISA',
          card_is_in: '411111',
          currency: 'USD',
          auth_type: 'THREE_DS',
          gateway: 'stripe',
          routing_approach: 'SR_SELECTION_V3_ROUTING',
          status: 'success',
          event_stage: 'gateway_decided',
          route: 'decide_gateway',
          details: JSON.stringify(decided),
        },
      ],
      api: [],
      llm: [],
    });
  });

  it("keeps a sticky decision's record in details without the customer key, in the event's key order", () => {
    const customerKey = 'a'.repeat(64);
    const payload = {
      ...decided,
      gateway: 'adyen',
      routingApproach: 'STICKY_ROUTING',
      sticky: { customerKey, combo: 'CREDIT:CARD', outcome: 'pinned', srHead: 'stripe' },
      experiment: { experimentId: 'x1' },
    };
    const details = mapEventToRows(envelope('decision.created', payload)).domain[0]?.details ?? '';
    expect(details).not.toContain(customerKey);
    expect(JSON.parse(details)).toEqual({ ...payload, sticky: { combo: 'CREDIT:CARD', outcome: 'pinned', srHead: 'stripe' } });
    expect(Object.keys(JSON.parse(details))).toEqual(Object.keys(payload));
  });

  it('maps decision.failed to decide_gateway_error keyed by request id when there is no payment id', () => {
    const [row] = mapEventToRows(
      envelope('decision.failed', { paymentId: null, requestId: 'req_9', errorCode: 'E1', errorMessage: 'bad', stage: 'request_parse_failed' }),
    ).domain;
    expect(row).toMatchObject({
      flow_type: 'decide_gateway_error',
      summary_kind: 'dynamic',
      payment_id: '',
      request_id: 'req_9',
      lookup_key: 'req_9',
      status: 'failure',
      event_stage: 'request_parse_failed',
      error_code: 'E1',
      error_message: 'bad',
      route: 'decide_gateway',
    });
  });

  it('keys an anonymous failure by its event id so unrelated failures never merge', () => {
    const [row] = mapEventToRows(
      envelope('decision.failed', { paymentId: null, requestId: null, errorCode: 'E1', errorMessage: 'bad', stage: 'request_failed' }, 'evt_x'),
    ).domain;
    expect(row?.lookup_key).toBe('evt_x');
  });

  it('maps feedback.received to update_gateway_score_update with the transaction status', () => {
    const payload = {
      paymentId: 'pay_1',
      gateway: 'stripe',
      status: 'CHARGED',
      outcome: 'success',
      enforceDynamicRoutingFailure: false,
      gatewayLatencyMs: 120,
      requestId: null,
      source: 'update_gateway_score',
    };
    const [row] = mapEventToRows(envelope('feedback.received', payload)).domain;
    expect(row).toMatchObject({
      flow_type: 'update_gateway_score_update',
      summary_kind: 'dynamic',
      status: 'CHARGED',
      event_stage: 'score_updated',
      gateway: 'stripe',
      route: 'update_gateway_score',
      lookup_key: 'pay_1',
    });
    const [legacy] = mapEventToRows(envelope('feedback.received', { ...payload, source: 'update_score_legacy' })).domain;
    expect(legacy?.route).toBe('update_score');
  });

  it('maps score.updated to a snapshot with the score and the bucket size as transaction count', () => {
    const [row] = mapEventToRows(
      envelope('score.updated', {
        paymentId: 'pay_1',
        gateway: 'stripe',
        status: 'CHARGED',
        scoringType: 'reward',
        scoreValue: 0.9,
        bucketSize: 125,
        eliminationScore: 1,
        payment,
        feedbackEventId: 'evt_feedback',
      }),
    ).domain;
    expect(row).toMatchObject({
      flow_type: 'update_gateway_score_score_snapshot',
      summary_kind: 'dynamic',
      status: 'snapshot',
      score_value: 0.9,
      transaction_count: 125,
      payment_method_type: 'CARD',
      country: '',
    });
  });

  it('maps api.requested to an API row and a request-hit row for decide, feedback and evaluate calls', () => {
    const payload = {
      requestId: 'req_1',
      flowType: 'decide_gateway',
      apiFlow: 'dynamic_routing',
      route: '/decide-gateway',
      method: 'POST',
      statusCode: 200,
      latencyMs: 4.5,
      paymentId: 'pay_1',
      errorCode: null,
      errorMessage: null,
      userAgent: null,
    };
    const rows = mapEventToRows(envelope('api.requested', payload));
    expect(rows.api).toEqual([
      {
        event_id: '01930000-0000-7000-8000-000000000001',
        merchant_id: 'm1',
        created_at_ms: at,
        request_id: 'req_1',
        payment_id: 'pay_1',
        api_flow: 'dynamic_routing',
        flow_type: 'decide_gateway',
        url_path: '/decide-gateway',
        http_method: 'POST',
        status_code: 200,
        latency_ms: 4.5,
        error_code: '',
        error_message: '',
        user_agent: '',
      },
    ]);
    expect(rows.domain).toEqual([
      expect.objectContaining({ flow_type: 'decide_gateway_request_hit', summary_kind: 'dynamic', status: 'received', route: 'decide_gateway' }),
    ]);
    const evaluate = mapEventToRows(envelope('api.requested', { ...payload, flowType: 'routing_evaluate', paymentId: null }));
    expect(evaluate.domain[0]).toMatchObject({ flow_type: 'routing_evaluate_request_hit', summary_kind: 'preview', lookup_key: 'req_1' });
    const other = mapEventToRows(envelope('api.requested', { ...payload, flowType: 'rule_config_get' }));
    expect(other.domain).toEqual([]);
    expect(other.api).toHaveLength(1);
  });

  it('rejects an event version it has no mapping for', () => {
    const event = { ...envelope('decision.failed', {}), version: 2 } as EventEnvelope;
    let failure: unknown;
    try {
      mapEventToRows(event);
    } catch (error) {
      failure = error;
    }
    expect(SwitchyardError.isInstance(failure) && failure.code).toBe('SY_EVENT_INVALID');
  });

  it('maps the same event to the same rows every time so re-sent batches collapse', () => {
    const event = envelope('decision.failed', { paymentId: 'p', requestId: null, errorCode: 'E', errorMessage: 'm', stage: 'request_failed' });
    expect(mapEventsToAnalyticsRows([event, event])).toEqual({ domain: [mapEventToRows(event).domain[0], mapEventToRows(event).domain[0]], api: [], llm: [] });
  });
});

describe('detailsOf', () => {
  it('keeps small payloads as their JSON', () => {
    expect(detailsOf({ a: "it's" })).toBe('{"a":"it\'s"}');
  });

  it('cuts payloads over 64 KiB without splitting a character', () => {
    const details = detailsOf({ text: '💳'.repeat(40_000) });
    const bytes = new TextEncoder().encode(details).length;
    expect(bytes).toBeLessThanOrEqual(maxDetailsBytes);
    expect(bytes).toBeGreaterThan(maxDetailsBytes - 4);
    expect(details.endsWith('\uFFFD')).toBe(false);
  });

  it('measures the cap in UTF-8 bytes, not characters, on both sides of the short cut', () => {
    // '€' is one UTF-16 unit and 3 UTF-8 bytes. `fits` makes JSON of 21,845 units (×3 = 65,535 bytes at
    // most: the short cut answers it); `over` makes JSON 8 units longer than a third of the cap.
    const fits = '€'.repeat(Math.floor(maxDetailsBytes / 3) - 8);
    expect(detailsOf({ t: fits })).toBe(JSON.stringify({ t: fits }));
    const over = '€'.repeat(Math.floor(maxDetailsBytes / 3));
    const cut = detailsOf({ t: over });
    expect(new TextEncoder().encode(cut).length).toBeLessThanOrEqual(maxDetailsBytes);
    expect(cut.length).toBeLessThan(JSON.stringify({ t: over }).length);
  });
});

describe('guard.applied', () => {
  const payload = {
    guard: 'prompt-injection',
    stage: 'input',
    action: 'block',
    count: 1,
    score: 0.82,
    blocked: true,
    surface: 'openai-chat',
    requestId: 'req-9',
    apiKeyId: 'key_1',
    routeGroup: 'support',
  };

  it('keeps its domain row and adds one analytics_llm_guard_outcomes row of counts (0011)', () => {
    const rows = mapEventsToAnalyticsRows([envelope('guard.applied', payload)]);
    expect(rows.domain.map((row) => [row.flow_type, row.status, row.error_code])).toEqual([['guard_applied_block', 'blocked', 'prompt-injection']]);
    expect(rows.guards).toEqual([
      {
        event_id: '01930000-0000-7000-8000-000000000001',
        merchant_id: 'm1',
        created_at_ms: at,
        guard: 'prompt-injection',
        stage: 'input',
        action: 'block',
        found: 1,
        score: 0.82,
        refused: 1,
        surface: 'openai-chat',
        request_id: 'req-9',
        api_key_id: 'key_1',
        route_group: 'support',
      },
    ]);
  });

  it("writes '' for a missing key, request and route group (an older publisher's event), and no guard rows for other events", () => {
    const { routeGroup: _omitted, ...older } = payload;
    const [row] =
      mapEventsToAnalyticsRows([envelope('guard.applied', { ...older, requestId: null, apiKeyId: null, score: null, blocked: false })]).guards ?? [];
    expect([row?.request_id, row?.api_key_id, row?.route_group, row?.score, row?.refused]).toEqual(['', '', '', null, 0]);
    expect(mapEventsToAnalyticsRows([]).guards).toBeUndefined();
  });
});
