/** Token revocation and login throttling (issue: auth), shared by every replica. */
export interface SessionStore {
  /** Denies a token id until `expiresAtMs` (its own expiry); visible to every replica at once. */
  revokeToken(tokenId: string, expiresAtMs: number): Promise<void>;
  isTokenRevoked(tokenId: string): Promise<boolean>;
  /**
   * Counts a failed login for `subject` (an account or a source address) inside a sliding window;
   * returns the failures counted so far in the window.
   */
  recordLoginFailure(subject: string, windowSeconds: number): Promise<number>;
  loginFailures(subject: string): Promise<number>;
  clearLoginFailures(subject: string): Promise<void>;
  /**
   * Keeps a one-time code's payload under the code's hash (never the code) for `ttlMs`.
   * `purpose` namespaces codes of different flows (e.g. 'sso' for admin SSO handoff codes).
   */
  putOneTimeCode(purpose: string, codeHash: string, payload: string, ttlMs: number): Promise<void>;
  /**
   * Reads and deletes a one-time code in one atomic step (Redis GETDEL): of two concurrent
   * redemptions exactly one gets the payload. Undefined when unknown, expired or already used.
   */
  consumeOneTimeCode(purpose: string, codeHash: string): Promise<string | undefined>;
}
