import { describe, expect, it } from 'vitest';
import { outcomeOf, scoringTypeOf, type ScoringTypeInput } from '../../../src/feedback/classify-status.js';

const successes = [
  'CHARGED',
  'AUTHORIZED',
  'COD_INITIATED',
  'VOIDED',
  'VOID_INITIATED',
  'CAPTURE_INITIATED',
  'CAPTURE_FAILED',
  'VOID_FAILED',
  'AUTO_REFUNDED',
  'PARTIAL_CHARGED',
  'TO_BE_CHARGED',
];
const failures = ['AUTHENTICATION_FAILED', 'AUTHORIZATION_FAILED', 'JUSPAY_DECLINED', 'FAILURE'];
const others = ['STARTED', 'PENDING_VBV', 'VBV_SUCCESSFUL', 'AUTHORIZING', 'NOP', 'PENDING', 'DECLINED'];

const decidedAtMs = 1_700_000_000_000;
function input(status: string, overrides: Partial<ScoringTypeInput> = {}): ScoringTypeInput {
  return { status, enforceDynamicRoutingFailure: false, decidedAtMs, nowMs: decidedAtMs + 1_000, latencyThresholdSeconds: 90, ...overrides };
}

describe('outcomeOf', () => {
  it.each(successes)('reads %s as success', (status) => {
    expect(outcomeOf(status)).toBe('success');
  });

  it.each(failures)('reads %s as failure', (status) => {
    expect(outcomeOf(status)).toBe('failure');
  });

  it.each(others)('reads %s as pending', (status) => {
    expect(outcomeOf(status)).toBe('pending');
  });

  it('reads DECLINED as pending because upstream leaves it out of the failure list', () => {
    expect(outcomeOf('DECLINED')).toBe('pending');
  });
});

describe('scoringTypeOf', () => {
  it.each(successes)('rewards %s', (status) => {
    expect(scoringTypeOf(input(status))).toBe('reward');
  });

  it.each(failures)('penalises the SR window for %s', (status) => {
    expect(scoringTypeOf(input(status))).toBe('penalise_srv3');
  });

  it.each(others)('penalises elimination only for %s while still within the latency threshold', (status) => {
    expect(scoringTypeOf(input(status, { nowMs: decidedAtMs + 89_999 }))).toBe('penalise');
  });

  it.each(others)('penalises the SR window for %s once the latency threshold has passed', (status) => {
    expect(scoringTypeOf(input(status, { nowMs: decidedAtMs + 90_000 }))).toBe('penalise_srv3');
  });

  it('treats DECLINED as pending, not as a failure, when within the threshold', () => {
    expect(scoringTypeOf(input('DECLINED', { nowMs: decidedAtMs + 5_000 }))).toBe('penalise');
  });

  it('uses the configured latency threshold in seconds', () => {
    expect(scoringTypeOf(input('PENDING', { nowMs: decidedAtMs + 299_000, latencyThresholdSeconds: 300 }))).toBe('penalise');
    expect(scoringTypeOf(input('PENDING', { nowMs: decidedAtMs + 300_000, latencyThresholdSeconds: 300 }))).toBe('penalise_srv3');
  });

  it.each([...successes, ...failures, ...others])('penalises the SR window for %s when failure is enforced', (status) => {
    expect(scoringTypeOf(input(status, { enforceDynamicRoutingFailure: true }))).toBe('penalise_srv3');
  });
});
