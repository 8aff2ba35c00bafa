import type { ApiKeyCreated, ApiKeyListItem, ApiKeyRevoked, AuthResponse, MeResponse, MerchantInfo, OnboardingResponse } from '../generated/schema-types.js';
import type { KeyCache as KeyCacheView, KeyLimits as KeyLimitsView, KeyMcpPolicy as KeyMcpPolicyView } from '../generated/schema-types.js';
import { toWireLimits, type KeyPolicy } from '../governance/key-policy.js';
import type { ApiKeyRecord } from '../ports/state-store.js';
import type { AuthFailure, AuthSession, CreatedApiKey, MerchantMembershipInfo, OnboardedMerchant, UserProfile } from './auth-outcomes.js';

/*
 * decision-engine 1.4.x response bodies for /auth/*, /onboarding/merchant and /api-key/*
 * (snake_case). Pure mapping, no HTTP: the route modules send what these return. The shapes are
 * the schemas under schemas/http/auth and schemas/http/api-keys (types generated from them).
 */

export type MerchantInfoView = MerchantInfo;
export type AuthResponseView = AuthResponse;
export type MeResponseView = MeResponse;
export type OnboardingResponseView = OnboardingResponse;
export type ApiKeyCreatedView = ApiKeyCreated;
export type ApiKeyListItemView = ApiKeyListItem;
export type ApiKeyRevokedView = ApiKeyRevoked;

/** decision-engine's message for each failure kind (statuses: see `AuthFailure`). */
export const authFailureMessages = Object.freeze({
  email_taken: 'Email already registered',
  merchant_not_found: 'Merchant not found',
  invalid_credentials: 'Invalid email or password',
  inactive: 'Account is inactive',
  invalid_token: 'Invalid or expired token',
  invalid_api_key: 'Invalid API key',
  revoked_api_key: 'API key is revoked',
  missing_credentials: 'Missing authentication credentials',
  api_key_not_found: 'API key revocation failed',
  throttled: 'Too many failed login attempts; try again later',
  outside_grant: 'Insufficient permissions',
} as const satisfies Record<Exclude<AuthFailure['kind'], 'weak_password'>, string>);

/** The message to send for a failure; a weak password carries its own (it names the rule broken). */
export function authFailureMessage(failure: AuthFailure): string {
  return failure.kind === 'weak_password' ? failure.message : authFailureMessages[failure.kind];
}

export const logoutResponse = Object.freeze({ message: 'Logged out successfully' });

/** decision-engine shows the merchant id where an account has no name. */
export function toMerchantInfo(membership: MerchantMembershipInfo): MerchantInfoView {
  return {
    merchant_id: membership.merchantId,
    merchant_name: membership.merchantName ?? membership.merchantId,
    role: membership.role,
  };
}

export function toAuthResponse(session: AuthSession): AuthResponseView {
  return {
    token: session.token,
    user_id: session.userId,
    email: session.email,
    merchant_id: session.merchantId,
    role: session.role,
    merchants: session.merchants.map(toMerchantInfo),
  };
}

export function toMeResponse(profile: UserProfile): MeResponseView {
  return {
    user_id: profile.userId,
    email: profile.email,
    merchant_id: profile.merchantId,
    role: profile.role,
    email_verified: profile.emailVerified,
    merchants: profile.merchants.map(toMerchantInfo),
  };
}

export function toOnboardingResponse(onboarded: OnboardedMerchant): OnboardingResponseView {
  return {
    token: onboarded.session.token,
    merchant_id: onboarded.session.merchantId,
    merchant_name: onboarded.merchantName,
    merchants: onboarded.session.merchants.map(toMerchantInfo),
  };
}

/** The only response that carries the raw key. */
export function toApiKeyCreated(created: CreatedApiKey): ApiKeyCreatedView {
  const { record } = created;
  return {
    key_id: record.keyId,
    api_key: created.rawKey,
    key_prefix: record.keyPrefix,
    merchant_id: record.merchantId,
    description: record.description,
    created_at: formatDbTimestamp(record.createdAt),
    ...policyView(record.policy),
  };
}

/** A key's own limits, cache setting and MCP tool allow-list as the wire shows them (null: none of its own). */
export function policyView(policy: KeyPolicy | undefined): { limits: KeyLimitsView | null; cache: KeyCacheView | null; mcp: KeyMcpPolicyView | null } {
  return {
    limits: toWireLimits(policy?.limits),
    cache: policy?.cache === undefined ? null : { ttl_s: policy.cache.ttlS },
    mcp: policy?.mcp === undefined ? null : { allowed_tools: [...policy.mcp.allowedTools] },
  };
}

export function toApiKeyListItem(record: ApiKeyRecord): ApiKeyListItemView {
  return {
    key_id: record.keyId,
    key_prefix: record.keyPrefix,
    merchant_id: record.merchantId,
    description: record.description,
    is_active: record.isActive,
    created_at: formatDbTimestamp(record.createdAt),
    ...policyView(record.policy),
  };
}

export function toApiKeyRevoked(keyId: string): ApiKeyRevokedView {
  return { key_id: keyId, message: 'API key revoked successfully' };
}

/**
 * decision-engine serialises database timestamps as UTC without a zone and with microseconds,
 * `2026-04-26 10:00:00.123000`; we keep milliseconds, so the last three digits are zero.
 */
export function formatDbTimestamp(epochMs: number): string {
  return `${new Date(epochMs).toISOString().replace('T', ' ').replace('Z', '')}000`;
}
