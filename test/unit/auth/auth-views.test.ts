import { describe, expect, it } from 'vitest';
import type { AuthFailure, AuthSession } from '../../../src/auth/auth-outcomes.js';
import {
  authFailureMessage,
  formatDbTimestamp,
  logoutResponse,
  toApiKeyCreated,
  toApiKeyListItem,
  toApiKeyRevoked,
  toAuthResponse,
  toMeResponse,
  toOnboardingResponse,
} from '../../../src/auth/auth-views.js';
import type { ApiKeyRecord } from '../../../src/ports/state-store.js';

const session: AuthSession = {
  token: 'jwt',
  tokenId: 'jti',
  expiresAt: 0,
  userId: 'u1',
  email: 'a@b.com',
  merchantId: 'm1',
  role: 'admin',
  merchants: [
    { merchantId: 'm1', merchantName: null, role: 'admin' },
    { merchantId: 'm2', merchantName: 'Second', role: 'member' },
  ],
};

const record: ApiKeyRecord = {
  keyId: 'k1',
  merchantId: 'm1',
  keyHash: 'h'.repeat(64),
  keyPrefix: 'DE_01234567',
  description: 'ci key',
  isActive: true,
  createdAt: Date.UTC(2026, 3, 26, 10, 0, 0, 123),
};

describe('auth views', () => {
  it('builds the AuthResponse with merchant names falling back to the id', () => {
    expect(toAuthResponse(session)).toEqual({
      token: 'jwt',
      user_id: 'u1',
      email: 'a@b.com',
      merchant_id: 'm1',
      role: 'admin',
      merchants: [
        { merchant_id: 'm1', merchant_name: 'm1', role: 'admin' },
        { merchant_id: 'm2', merchant_name: 'Second', role: 'member' },
      ],
    });
  });

  it('builds the MeResponse with email_verified', () => {
    const me = toMeResponse({ userId: 'u1', email: 'a@b.com', merchantId: '', role: 'admin', emailVerified: true, merchants: [] });
    expect(me).toEqual({ user_id: 'u1', email: 'a@b.com', merchant_id: '', role: 'admin', email_verified: true, merchants: [] });
  });

  it('builds the onboarding response', () => {
    expect(toOnboardingResponse({ session, merchantName: 'Acme' })).toMatchObject({ token: 'jwt', merchant_id: 'm1', merchant_name: 'Acme' });
  });

  it('shows the raw key only in the creation response', () => {
    expect(toApiKeyCreated({ record, rawKey: 'DE_raw' })).toEqual({
      key_id: 'k1',
      api_key: 'DE_raw',
      key_prefix: 'DE_01234567',
      merchant_id: 'm1',
      description: 'ci key',
      created_at: '2026-04-26 10:00:00.123000',
      limits: null,
      cache: null,
      mcp: null,
    });
    const listed = toApiKeyListItem(record);
    expect(listed).toEqual({
      key_id: 'k1',
      key_prefix: 'DE_01234567',
      merchant_id: 'm1',
      description: 'ci key',
      is_active: true,
      created_at: '2026-04-26 10:00:00.123000',
      limits: null,
      cache: null,
      mcp: null,
    });
    expect(JSON.stringify(listed)).not.toContain(record.keyHash);
  });

  it('builds the revoke and logout messages', () => {
    expect(toApiKeyRevoked('k1')).toEqual({ key_id: 'k1', message: 'API key revoked successfully' });
    expect(logoutResponse).toEqual({ message: 'Logged out successfully' });
  });

  it('formats timestamps as UTC with microseconds and no zone', () => {
    expect(formatDbTimestamp(0)).toBe('1970-01-01 00:00:00.000000');
  });

  it('gives decision-engine’s message for each failure and the rule message for a weak password', () => {
    const cases: [AuthFailure, string][] = [
      [{ kind: 'email_taken' }, 'Email already registered'],
      [{ kind: 'merchant_not_found' }, 'Merchant not found'],
      [{ kind: 'invalid_credentials' }, 'Invalid email or password'],
      [{ kind: 'inactive' }, 'Account is inactive'],
      [{ kind: 'invalid_token', reason: 'expired' }, 'Invalid or expired token'],
      [{ kind: 'invalid_api_key' }, 'Invalid API key'],
      [{ kind: 'revoked_api_key' }, 'API key is revoked'],
      [{ kind: 'missing_credentials' }, 'Missing authentication credentials'],
      [{ kind: 'api_key_not_found' }, 'API key revocation failed'],
      [{ kind: 'weak_password', reason: 'common', message: 'Password is too common' }, 'Password is too common'],
    ];
    for (const [failure, message] of cases) expect(authFailureMessage(failure)).toBe(message);
  });
});
