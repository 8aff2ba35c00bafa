import { describe, expect, it } from 'vitest';
import { mapEventToRows } from '../../../src/analytics/map-event-to-rows.js';
import { createEvent } from '../../../src/events/event-envelope.js';
import { validateEvent } from '../../../src/events/validate-event.js';
import type { RuleEvaluatedV1 } from '../../../src/generated/schema-types.js';

const at = Date.UTC(2026, 10, 20, 11, 0, 0);

function ruleEvent(overrides: Partial<RuleEvaluatedV1>) {
  const payload: RuleEvaluatedV1 = {
    source: 'evaluate',
    paymentId: 'pay_1',
    requestId: 'req_1',
    algorithmId: 'routing_1',
    algorithmName: 'cards',
    algorithmType: 'advanced',
    ruleName: 'Card Rule',
    status: 'success',
    output: { type: 'priority', connectors: [{ gateway_name: 'checkout', gateway_id: null }] },
    evaluatedOutput: ['checkout'],
    errorMessage: null,
    latencyMs: 0.4,
    ...overrides,
  };
  const event = createEvent('rule.evaluated', 'm1', payload, at);
  validateEvent(event);
  return event;
}

describe('rule.evaluated → analytics rows', () => {
  it('maps an evaluation to a preview row named after its algorithm type', () => {
    const [row] = mapEventToRows(ruleEvent({})).domain;
    expect(row).toMatchObject({
      flow_type: 'routing_evaluate_advanced',
      summary_kind: 'preview',
      api_flow: 'rule_based_routing',
      lookup_key: 'pay_1',
      rule_name: 'Card Rule',
      gateway: 'checkout',
      status: 'success',
      event_stage: 'preview_evaluated',
      route: 'routing_evaluate',
    });
    expect(JSON.parse(row!.details)).toMatchObject({ algorithmId: 'routing_1', latencyMs: 0.4 });
  });

  it('maps a failed evaluation to routing_evaluate_error', () => {
    const [row] = mapEventToRows(
      ruleEvent({
        status: 'failure',
        ruleName: null,
        output: null,
        evaluatedOutput: [],
        errorMessage: 'Invalid request received : Interpreter error: InvalidComparison',
      }),
    ).domain;
    expect(row).toMatchObject({
      flow_type: 'routing_evaluate_error',
      status: 'failure',
      error_message: 'Invalid request received : Interpreter error: InvalidComparison',
      rule_name: '',
    });
  });

  it("maps a decision's rule use to decide_gateway_rule_hit, named by rule or else by algorithm", () => {
    const [hit] = mapEventToRows(ruleEvent({ source: 'decide_gateway' })).domain;
    expect(hit).toMatchObject({
      flow_type: 'decide_gateway_rule_hit',
      summary_kind: 'dynamic',
      status: 'hit',
      event_stage: 'rule_applied',
      rule_name: 'Card Rule',
      route: 'decide_gateway',
    });
    const [fallback] = mapEventToRows(ruleEvent({ source: 'decide_gateway', ruleName: null, status: 'default_selection' })).domain;
    expect(fallback).toMatchObject({ flow_type: 'decide_gateway_rule_hit', rule_name: 'cards' });
  });

  it('refuses a payload the schema does not allow', () => {
    expect(() => ruleEvent({ status: 'matched' as RuleEvaluatedV1['status'] })).toThrow();
  });
});
