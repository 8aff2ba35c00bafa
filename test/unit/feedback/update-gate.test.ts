import { describe, expect, it } from 'vitest';
import { updateGateOf, type UpdateGateInput } from '../../../src/feedback/update-gate.js';

const decidedAtMs = 1_700_000_000_000;
const windowMs = 600_000;
function input(overrides: Partial<UpdateGateInput> = {}): UpdateGateInput {
  return {
    orderType: 'ORDER_PAYMENT',
    decidedAtMs,
    feedbackAtMs: decidedAtMs + 1_000,
    windowMs,
    gatewayLatencyMs: null,
    latencyLimitMs: null,
    ...overrides,
  };
}

describe('updateGateOf', () => {
  it('opens for feedback inside the 10 minute window', () => {
    expect(updateGateOf(input({ feedbackAtMs: decidedAtMs + windowMs - 1 }))).toBe('open');
  });

  it('closes for feedback arriving 10 minutes or more after the decision', () => {
    expect(updateGateOf(input({ feedbackAtMs: decidedAtMs + windowMs }))).toBe('outside_update_window');
  });

  it.each(['MANDATE_PAYMENT', 'EMANDATE_PAYMENT', 'TPV_MANDATE_PAYMENT', 'TPV_EMANDATE_PAYMENT'])(
    'opens for late %s feedback because recurring payments are exempt',
    (orderType) => {
      expect(updateGateOf(input({ orderType, feedbackAtMs: decidedAtMs + 3 * windowMs }))).toBe('open');
    },
  );

  it.each(['MANDATE_REGISTER', 'TPV_PAYMENT'])('closes for late %s feedback', (orderType) => {
    expect(updateGateOf(input({ orderType, feedbackAtMs: decidedAtMs + windowMs }))).toBe('outside_update_window');
  });

  it('closes when the feedback latency exceeds the merchant limit', () => {
    expect(updateGateOf(input({ gatewayLatencyMs: 5_001, latencyLimitMs: 5_000 }))).toBe('latency_above_limit');
  });

  it('opens when the feedback latency equals the merchant limit', () => {
    expect(updateGateOf(input({ gatewayLatencyMs: 5_000, latencyLimitMs: 5_000 }))).toBe('open');
  });

  it('ignores latency when only one side gives it', () => {
    expect(updateGateOf(input({ gatewayLatencyMs: 50_000 }))).toBe('open');
    expect(updateGateOf(input({ latencyLimitMs: 1 }))).toBe('open');
  });
});
