/** Where an authentication attempt came from: what the API layer knows about the request. */
export interface AttemptOrigin {
  /** The client address (the TCP peer, or the X-Forwarded-For client the TRUST_PROXY setting believes). */
  readonly sourceAddress: string;
  readonly requestId?: string | undefined;
  /** The route template, e.g. `/auth/login`. */
  readonly route?: string | undefined;
  readonly userAgent?: string | undefined;
}

/** The kind of secret the attempt presented. */
export type AttemptCredential = 'password' | 'api_key' | 'admin_secret' | 'sso_code' | 'super_admin' | 'members';

/**
 * Why an attempt failed: the `AuthFailure` kinds an attempt can end in, plus `invalid_admin_secret`.
 * `throttled` attempts were refused before the secret was even compared.
 */
export type AttemptFailureReason =
  | 'invalid_credentials'
  | 'inactive'
  | 'invalid_api_key'
  | 'revoked_api_key'
  | 'invalid_admin_secret'
  | 'throttled'
  | 'invalid_code'
  | 'not_super_admin'
  | 'unsupported_session'
  | 'merchant_not_found'
  /** A password reset or email verification token that is unknown, expired or spent. */
  | 'invalid_token'
  /** A new password the password policy refused (change or reset). */
  | 'weak_password';

/**
 * One authentication attempt, for the audit trail (`auth.attempted` events). Never holds the
 * secret: not the password, not the key, not the admin secret, nor any hash of them.
 *
 * @remarks Recorded: password logins (success and failure), API key failures and admin-secret
 * failures. Successful API key uses are not (every authenticated request would be an event), nor
 * are refused session tokens (an expired dashboard token is routine, not an attack signal).
 */
export interface AuthAttempt {
  readonly credential: AttemptCredential;
  readonly outcome: 'success' | 'failure';
  /** null on success. */
  readonly reason: AttemptFailureReason | null;
  /**
   * The merchant whose log shows the attempt: the user's current merchant, the key's merchant, or
   * the existing merchant an admin-secret request named; null when there is none (unknown email or
   * key, a new merchant id), published under the reserved placeholder merchant.
   */
  readonly merchantId: string | null;
  /** Who or what was tried: the email of a login, the display prefix (`DE_` + 8 hex) of a well-formed key; null otherwise. */
  readonly subject: string | null;
  readonly userId: string | null;
  readonly keyId: string | null;
  readonly origin: AttemptOrigin;
  /**
   * What was done, for the SSO and super-admin audit: `mint`, `exchange`, `enter_merchant`,
   * `exit`, `lookup`, or `view_request` (`METHOD route`, any request made in a super-admin view);
   * for the account routes (credential `password`) one of `AccountAction`.
   */
  readonly action?: string;
}

/**
 * Receives attempts as they end. Must not throw and must not make the caller wait: the
 * authentication answer never depends on the audit trail (the bus spools while Kafka is away).
 */
export type AuthAttemptRecorder = (attempt: AuthAttempt) => void;

/** The origin of an attempt whose caller said nothing about the request (library use, old callers). */
export const unknownOrigin: AttemptOrigin = Object.freeze({ sourceAddress: 'unknown' });

/**
 * The account routes' actions (credential `password`): a password change, a reset link asked for,
 * a reset redeemed, an email verified. A login has none.
 */
export type AccountAction = 'password_change' | 'password_reset_request' | 'password_reset' | 'email_verify';
