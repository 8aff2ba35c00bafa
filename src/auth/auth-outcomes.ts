import type { KeyPolicy } from '../governance/key-policy.js';
import type { ApiKeyRecord, MerchantRole } from '../ports/state-store.js';
import type { PasswordRule } from './password-policy.js';
import type { SessionClaims, TokenRejection } from './token-service.js';

/**
 * Results of `AuthService`. Expected failures are values with a `kind`; the API layer maps each
 * kind to decision-engine 1.4.x's status and message (text in `authFailureMessages`, auth-views.ts):
 *
 * | kind                  | decision-engine answer                                              |
 * |-----------------------|---------------------------------------------------------------------|
 * | `email_taken`         | 409 `Email already registered` (envelope TE_04)                     |
 * | `weak_password`       | 400, `message` as returned (envelope TE_04)                         |
 * | `merchant_not_found`  | 404 `Merchant not found` (envelope TE_04)                           |
 * | `invalid_credentials` | 401 `Invalid email or password` (envelope TE_04)                    |
 * | `inactive`            | 403 `Account is inactive` (envelope TE_04)                          |
 * | `throttled`           | ours, not in decision-engine: 429 with `Retry-After` (seconds)      |
 * | `invalid_token`       | 401 `Invalid or expired token` (plain text; `reason` is for logs)   |
 * | `invalid_api_key`     | 401 `Invalid API key` (plain text)                                  |
 * | `revoked_api_key`     | 401 `API key is revoked` (plain text)                               |
 * | `missing_credentials` | 401 `Missing authentication credentials` (plain text)               |
 * | `api_key_not_found`   | 500 `API key revocation failed` (envelope TE_04; decision-engine's answer for an unknown key id) |
 * | `outside_grant`       | 403 `Insufficient permissions` (envelope TE_04): a handoff or view session switching outside its grant, whether or not that merchant exists |
 *
 * @remarks No HTTP status lives in code under src/: this table is the contract for api/.
 */
export type AuthFailure =
  | { readonly kind: 'email_taken' }
  | { readonly kind: 'weak_password'; readonly reason: PasswordRule; readonly message: string }
  | { readonly kind: 'merchant_not_found' }
  | { readonly kind: 'invalid_credentials' }
  | { readonly kind: 'inactive' }
  | { readonly kind: 'throttled'; readonly retryAfterMs: number }
  | { readonly kind: 'invalid_token'; readonly reason: TokenRejection | 'unknown_user' }
  | { readonly kind: 'invalid_api_key' }
  | { readonly kind: 'revoked_api_key' }
  | { readonly kind: 'missing_credentials' }
  | { readonly kind: 'api_key_not_found' }
  | { readonly kind: 'outside_grant' };

export type AuthFailureKind = AuthFailure['kind'];

type Failure<K extends AuthFailureKind> = Extract<AuthFailure, { kind: K }>;

/** One merchant the user belongs to. `merchantName` is null when the account has none (or is gone). */
export interface MerchantMembershipInfo {
  readonly merchantId: string;
  readonly merchantName: string | null;
  readonly role: MerchantRole;
}

/** A signed-in session: the token and the context it carries. */
export interface AuthSession {
  readonly token: string;
  readonly tokenId: string;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
  readonly userId: string;
  readonly email: string;
  /** '' when the user belongs to no merchant yet. */
  readonly merchantId: string;
  readonly role: MerchantRole;
  readonly merchants: readonly MerchantMembershipInfo[];
}

export interface UserProfile {
  readonly userId: string;
  readonly email: string;
  readonly merchantId: string;
  readonly role: MerchantRole;
  /** Always true: email verification is not implemented (decision-engine 1.4.x reports true too). */
  readonly emailVerified: boolean;
  readonly merchants: readonly MerchantMembershipInfo[];
}

/** Onboarding's answer: the new merchant and a token scoped to it. */
export interface OnboardedMerchant {
  readonly session: AuthSession;
  readonly merchantName: string;
}

/** A newly minted key; the only time `rawKey` exists outside the caller's hands. */
export interface CreatedApiKey {
  readonly record: ApiKeyRecord;
  readonly rawKey: string;
}

/** Who a request acts for once authenticated: a user session (Bearer) or a merchant's API key. */
export type AuthContext =
  | { readonly via: 'bearer'; readonly claims: SessionClaims }
  | { readonly via: 'api_key'; readonly merchantId: string; readonly keyId: string; readonly policy?: KeyPolicy };

export type SignupResult = { readonly kind: 'ok'; readonly session: AuthSession } | Failure<'email_taken' | 'weak_password' | 'merchant_not_found'>;

export type LoginResult = { readonly kind: 'ok'; readonly session: AuthSession } | Failure<'invalid_credentials' | 'inactive' | 'throttled'>;

export type MeResult = { readonly kind: 'ok'; readonly profile: UserProfile } | Failure<'invalid_token' | 'inactive'>;

export type MerchantsResult = { readonly kind: 'ok'; readonly merchants: readonly MerchantMembershipInfo[] } | Failure<'invalid_token' | 'inactive'>;

export type SwitchMerchantResult =
  | { readonly kind: 'ok'; readonly session: AuthSession }
  | Failure<'merchant_not_found' | 'invalid_token' | 'inactive' | 'outside_grant'>;

export type OnboardMerchantResult = { readonly kind: 'ok'; readonly onboarded: OnboardedMerchant } | Failure<'invalid_token' | 'inactive'>;

export type RevokeApiKeyResult = { readonly kind: 'ok'; readonly keyId: string } | Failure<'api_key_not_found'>;

export type ApiKeyAuthentication =
  | { readonly kind: 'ok'; readonly merchantId: string; readonly keyId: string; readonly policy?: KeyPolicy }
  | Failure<'invalid_api_key' | 'revoked_api_key'>;

export type BearerAuthentication = { readonly kind: 'ok'; readonly claims: SessionClaims } | Failure<'invalid_token'>;

export type Authentication =
  | { readonly kind: 'ok'; readonly context: AuthContext }
  | Failure<'invalid_token' | 'invalid_api_key' | 'revoked_api_key' | 'missing_credentials'>;
