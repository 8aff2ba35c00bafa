import { describe, expect, it } from 'vitest';
import { analyticsFlows } from '../../../src/analytics/analytics-flows.js';
import { authAttemptFlow, mapEventToRows } from '../../../src/analytics/map-event-to-rows.js';
import type { EventEnvelope } from '../../../src/events/event-envelope.js';
import type { AuthAttemptedV1 } from '../../../src/generated/schema-types.js';

const at = Date.UTC(2026, 10, 20, 11, 0, 0);

function attempt(payload: Partial<AuthAttemptedV1>): EventEnvelope {
  return {
    id: '01930000-0000-7000-8000-0000000000a1',
    type: 'auth.attempted',
    version: 1,
    occurredAt: at,
    merchantId: 'm1',
    payload: {
      credential: 'password',
      outcome: 'failure',
      reason: 'invalid_credentials',
      subject: 'ops@shop.example',
      userId: 'u1',
      keyId: null,
      sourceAddress: '203.0.113.9',
      requestId: 'req-9',
      route: '/auth/login',
      userAgent: 'curl/8',
      ...payload,
    },
  };
}

describe('mapEventToRows: auth.attempted', () => {
  it('maps a refused login to an auth_password_failure row keyed by request, message naming email and address', () => {
    const { domain, api, llm } = mapEventToRows(attempt({}));
    expect(api).toEqual([]);
    expect(llm).toEqual([]);
    expect(domain).toEqual([
      expect.objectContaining({
        event_id: '01930000-0000-7000-8000-0000000000a1',
        merchant_id: 'm1',
        created_at_ms: at,
        api_flow: 'auth',
        flow_type: 'auth_password_failure',
        summary_kind: 'auth',
        request_id: 'req-9',
        lookup_key: 'req-9',
        payment_id: '',
        status: 'failure',
        event_stage: 'authentication',
        error_code: 'invalid_credentials',
        error_message: 'Login refused for ops@shop.example from 203.0.113.9: invalid_credentials',
        route: '/auth/login',
      }),
    ]);
    expect(JSON.parse(domain[0]!.details)).toEqual({
      credential: 'password',
      subject: 'ops@shop.example',
      userId: 'u1',
      keyId: null,
      sourceAddress: '203.0.113.9',
      userAgent: 'curl/8',
    });
  });

  it('names the key prefix of a refused key and says when the key was malformed', () => {
    const [known] = mapEventToRows(attempt({ credential: 'api_key', reason: 'revoked_api_key', subject: 'DE_01234567', route: '/decide-gateway' })).domain;
    expect(known).toMatchObject({ flow_type: 'auth_api_key_failure', error_message: 'API key DE_01234567 refused from 203.0.113.9: revoked_api_key' });
    const [malformed] = mapEventToRows(attempt({ credential: 'api_key', reason: 'invalid_api_key', subject: null })).domain;
    expect(malformed!.error_message).toBe('API key (malformed) refused from 203.0.113.9: invalid_api_key');
    const [admin] = mapEventToRows(attempt({ credential: 'admin_secret', reason: 'throttled', subject: null })).domain;
    expect(admin).toMatchObject({
      flow_type: 'auth_admin_secret_failure',
      error_code: 'throttled',
      error_message: 'Admin secret refused from 203.0.113.9: throttled',
    });
  });

  it('maps a successful login to a row outside the error flows, with no error fields', () => {
    const [row] = mapEventToRows(attempt({ outcome: 'success', reason: null })).domain;
    expect(row).toMatchObject({ flow_type: 'auth_password_success', status: 'success', error_code: '', error_message: '' });
    expect(analyticsFlows.errors).not.toContain(row!.flow_type);
  });

  it('lists every failure flow among the error flows that log-summaries reads', () => {
    for (const credential of ['password', 'api_key', 'admin_secret'] as const) {
      expect(analyticsFlows.errors).toContain(authAttemptFlow(credential, 'failure'));
    }
  });
});
