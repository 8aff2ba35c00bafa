/** What a one-time token is for: a password reset or an email verification (issue 25). */
export type OneTimeTokenPurpose = 'password_reset' | 'email_verification';

/**
 * "Sessions of this user issued before `beforeMs` are invalid", except the one session that made the
 * change (`keepTokenId`, the password-change caller's own token).
 */
export interface SessionCutoff {
  readonly beforeMs: number;
  readonly keepTokenId?: string;
}

/**
 * Credential changes (issue 25): password hashes, email verification, one-time tokens kept only as
 * their SHA-256, and the per-user session cutoff every replica checks when it verifies a token.
 */
export interface CredentialStore {
  /** Replaces the user's password hash; false when there is no such user (nothing is created). */
  setPasswordHash(userId: string, passwordHash: string): Promise<boolean>;
  markEmailVerified(userId: string): Promise<void>;
  isEmailVerified(userId: string): Promise<boolean>;
  /** Keeps `tokenHash` → user id until `expiresAtMs`. */
  saveOneTimeToken(purpose: OneTimeTokenPurpose, tokenHash: string, userId: string, expiresAtMs: number): Promise<void>;
  /** Removes the token and returns its user id, atomically: of two concurrent calls only one gets it. */
  consumeOneTimeToken(purpose: OneTimeTokenPurpose, tokenHash: string): Promise<string | undefined>;
  /** Sets the user's cutoff, kept `ttlMs` (the longest a token lives); visible to every replica at once. */
  setSessionCutoff(userId: string, cutoff: SessionCutoff, ttlMs: number): Promise<void>;
  sessionCutoff(userId: string): Promise<SessionCutoff | undefined>;
}
