import type { AccountAction, AttemptFailureReason, AttemptOrigin, AuthAttemptRecorder } from '../auth-attempt.js';
import { unknownOrigin } from '../auth-attempt.js';
import type { Logger } from '../../logging/logger.js';
import type { MailMessage, Mailer } from '../../ports/mail.js';
import type { CredentialStore, OneTimeTokenPurpose, UserRecord, UserStore } from '../../ports/state-store.js';
import type { Clock } from '../../time/clock.js';
import { defaultScryptParams, hashPassword, verifyPassword, type ScryptParams } from '../password-hash.js';
import { checkPassword, type PasswordRule } from '../password-policy.js';
import type { SessionClaims } from '../token-service.js';
import { generateOneTimeToken, hashOneTimeToken } from './one-time-token.js';

export interface AccountRecoverySettings {
  /** Lifetime of a reset token; config `passwordResetTtlSeconds` (default 1,800 s). */
  readonly resetTtlSeconds: number;
  /** Lifetime of an email verification token; config `emailVerificationTtlSeconds`. */
  readonly verificationTtlSeconds: number;
  /** Longest a session token lives (JWT_TTL_SECONDS): how long a session cutoff must be kept. */
  readonly sessionTtlSeconds: number;
  /**
   * Where the service (and its dashboard, under /dashboard/) is reached. Links open dashboard pages,
   * the token in the URL fragment: `<base>/dashboard/#/reset-password?token=…`, `<base>/dashboard/#/verify-email?token=…`.
   */
  readonly publicBaseUrl: string;
}

export interface AccountRecoveryDependencies {
  readonly users: UserStore;
  readonly credentials: CredentialStore;
  readonly mailer: Mailer;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly settings: AccountRecoverySettings;
  readonly passwordHashing?: ScryptParams;
  /**
   * The audit trail: every change, reset request, reset and verification, refusals included, as an
   * `auth.attempted` event (credential `password`, an `AccountAction`). Never the token nor a password.
   */
  readonly audit?: AuthAttemptRecorder;
}

/** Who an audited account action concerned: the user when known, else only what the caller named. */
interface AuditTarget {
  readonly merchantId: string | null;
  readonly subject: string | null;
  readonly userId: string | null;
}

const nobody: AuditTarget = { merchantId: null, subject: null, userId: null };

/** The user's current merchant's log (as a login's audit row), else the reserved placeholder merchant. */
function targetOf(user: UserRecord): AuditTarget {
  return { merchantId: user.currentMerchantId !== '' ? user.currentMerchantId : null, subject: user.email, userId: user.userId };
}

const changeFailureReasons = {
  invalid_password: 'invalid_credentials',
  weak_password: 'weak_password',
  unsupported_session: 'unsupported_session',
  unknown_user: 'inactive',
} as const satisfies Record<Exclude<ChangePasswordResult['kind'], 'ok'>, AttemptFailureReason>;

export type ChangePasswordResult =
  | { readonly kind: 'ok' }
  | { readonly kind: 'invalid_password' }
  | { readonly kind: 'weak_password'; readonly reason: PasswordRule; readonly message: string }
  | { readonly kind: 'unsupported_session' }
  | { readonly kind: 'unknown_user' };

export type RedeemResult =
  | { readonly kind: 'ok' }
  | { readonly kind: 'invalid_token' }
  | { readonly kind: 'weak_password'; readonly reason: PasswordRule; readonly message: string };

/**
 * Password change, forgotten-password reset and email verification (issue 25), over the user and
 * credential stores and a mail port. Knows no HTTP.
 *
 * @remarks `forgotPassword` does the same work whether or not the account exists (a token is made,
 * hashed and stored; for an unknown or inactive address it names no user and can never be redeemed)
 * and hands the mail to a background delivery, so neither its answer nor its time tells them apart.
 */
export class AccountRecovery {
  readonly #deps: AccountRecoveryDependencies;
  readonly #hashing: ScryptParams;
  readonly #deliveries = new Set<Promise<void>>();

  constructor(dependencies: AccountRecoveryDependencies) {
    this.#deps = dependencies;
    this.#hashing = dependencies.passwordHashing ?? defaultScryptParams;
  }

  /** Checks the current password, applies the policy, stores the new hash and ends every other session. */
  async changePassword(
    session: SessionClaims,
    currentPassword: string,
    newPassword: string,
    origin: AttemptOrigin = unknownOrigin,
  ): Promise<ChangePasswordResult> {
    const result = await this.#changePassword(session, currentPassword, newPassword);
    const target = { merchantId: session.merchantId !== '' ? session.merchantId : null, subject: session.email, userId: session.userId };
    this.#audit('password_change', target, origin, result.kind === 'ok' ? null : changeFailureReasons[result.kind]);
    return result;
  }

  async #changePassword(session: SessionClaims, currentPassword: string, newPassword: string): Promise<ChangePasswordResult> {
    // decision-engine: account management needs a full standard session (not an SSO or view session).
    const tokenType = (session as { readonly tokenType?: string }).tokenType;
    if (tokenType !== undefined && tokenType !== 'standard') return { kind: 'unsupported_session' };
    const user = await this.#deps.users.findById(session.userId);
    if (user === undefined || !user.isActive) return { kind: 'unknown_user' };
    if (!(await verifyPassword(currentPassword, user.passwordHash))) return { kind: 'invalid_password' };
    const policy = checkPassword(newPassword, user.email);
    if (!policy.ok) return { kind: 'weak_password', reason: policy.reason, message: policy.message };
    await this.#deps.credentials.setPasswordHash(user.userId, await hashPassword(newPassword, this.#hashing));
    await this.#cutSessions(user.userId, session.tokenId);
    return { kind: 'ok' };
  }

  /** Always resolves the same way; a reset link is mailed (in the background) only to an active account. */
  async forgotPassword(email: string, origin: AttemptOrigin = unknownOrigin): Promise<void> {
    const user = await this.#deps.users.findByEmail(email);
    const userId = user?.isActive === true ? user.userId : '';
    const token = await this.#saveToken('password_reset', userId, this.#deps.settings.resetTtlSeconds);
    // As a login's: an unknown email goes to the reserved placeholder merchant, the email as subject.
    // The audit is fire-and-forget in every branch, so it tells nothing apart in time either.
    if (user === undefined) this.#audit('password_reset_request', { ...nobody, subject: email }, origin, 'invalid_credentials');
    else this.#audit('password_reset_request', targetOf(user), origin, user.isActive ? null : 'inactive');
    if (userId === '') return;
    const link = `${this.#base()}/dashboard/#/reset-password?token=${encodeURIComponent(token)}`;
    const minutes = Math.round(this.#deps.settings.resetTtlSeconds / 60);
    this.#deliver({
      to: email,
      subject: 'Reset your Switchyard password',
      text: `Someone asked to reset the password of this account.\n\nOpen this link to choose a new password (valid ${minutes} minutes, once):\n${link}\n\nIf it was not you, ignore this message; your password is unchanged.\n`,
      purpose: 'password_reset',
    });
  }

  /** Redeems a reset token once: the policy applies before the token is spent, and every session ends. */
  async resetPassword(token: string, newPassword: string, origin: AttemptOrigin = unknownOrigin): Promise<RedeemResult> {
    const { result, user } = await this.#resetPassword(token, newPassword);
    this.#audit('password_reset', user !== undefined ? targetOf(user) : nobody, origin, result.kind === 'ok' ? null : result.kind);
    return result;
  }

  async #resetPassword(token: string, newPassword: string): Promise<{ readonly result: RedeemResult; readonly user?: UserRecord }> {
    // The account-independent rules first, so a too short or common password does not spend the token.
    const general = checkPassword(newPassword, '');
    if (!general.ok) return { result: { kind: 'weak_password', reason: general.reason, message: general.message } };
    const userId = await this.#deps.credentials.consumeOneTimeToken('password_reset', hashOneTimeToken(token));
    const user = userId === undefined || userId === '' ? undefined : await this.#deps.users.findById(userId);
    if (user === undefined || !user.isActive) return { result: { kind: 'invalid_token' } };
    // Only the email rule is left; it needs the account, so it is checked once the token is spent
    // (a refused token is not put back: its expiry would have to be kept with it).
    const policy = checkPassword(newPassword, user.email);
    if (!policy.ok) return { result: { kind: 'weak_password', reason: policy.reason, message: policy.message }, user };
    if (!(await this.#deps.credentials.setPasswordHash(user.userId, await hashPassword(newPassword, this.#hashing))))
      return { result: { kind: 'invalid_token' }, user };
    await this.#cutSessions(user.userId, undefined);
    return { result: { kind: 'ok' }, user };
  }

  /** Mails a verification link to the user (signup); the link works once. */
  async sendEmailVerification(userId: string, email: string): Promise<void> {
    const token = await this.#saveToken('email_verification', userId, this.#deps.settings.verificationTtlSeconds);
    this.#deliver({
      to: email,
      subject: 'Verify your Switchyard email address',
      text: `Open this link to verify your email address (works once):\n${this.#base()}/dashboard/#/verify-email?token=${encodeURIComponent(token)}\n`,
      purpose: 'email_verification',
    });
  }

  async verifyEmail(token: string, origin: AttemptOrigin = unknownOrigin): Promise<RedeemResult> {
    const userId = await this.#deps.credentials.consumeOneTimeToken('email_verification', hashOneTimeToken(token));
    const user = userId === undefined || userId === '' ? undefined : await this.#deps.users.findById(userId);
    if (user === undefined) {
      this.#audit('email_verify', nobody, origin, 'invalid_token');
      return { kind: 'invalid_token' };
    }
    await this.#deps.credentials.markEmailVerified(user.userId);
    this.#audit('email_verify', targetOf(user), origin, null);
    return { kind: 'ok' };
  }

  /** Resolves when every mail handed to the background so far has been delivered or has failed (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#deliveries]);
  }

  #audit(action: AccountAction, target: AuditTarget, origin: AttemptOrigin, reason: AttemptFailureReason | null): void {
    this.#deps.audit?.({ credential: 'password', outcome: reason === null ? 'success' : 'failure', reason, ...target, keyId: null, origin, action });
  }

  async #saveToken(purpose: OneTimeTokenPurpose, userId: string, ttlSeconds: number): Promise<string> {
    const token = generateOneTimeToken();
    await this.#deps.credentials.saveOneTimeToken(purpose, hashOneTimeToken(token), userId, this.#deps.clock.now() + ttlSeconds * 1000);
    return token;
  }

  async #cutSessions(userId: string, keepTokenId: string | undefined): Promise<void> {
    const cutoff = { beforeMs: this.#deps.clock.now(), ...(keepTokenId !== undefined ? { keepTokenId } : {}) };
    await this.#deps.credentials.setSessionCutoff(userId, cutoff, this.#deps.settings.sessionTtlSeconds * 1000);
  }

  #base(): string {
    return this.#deps.settings.publicBaseUrl.replace(/\/+$/, '');
  }

  #deliver(message: MailMessage): void {
    const delivery = this.#deps.mailer.send(message).catch((error: unknown) => {
      // The address and purpose only: the message body holds the token.
      this.#deps.logger.error({ err: error, purpose: message.purpose }, 'mail delivery failed');
    });
    this.#deliveries.add(delivery);
    void delivery.finally(() => this.#deliveries.delete(delivery));
  }
}
