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
}
