import type { SessionCutoff } from '../ports/state/credential-store.js';

/**
 * Whether a session falls under its user's cutoff (issue 25): issued before the cutoff and not the
 * one session that made the change. `issuedAtMs` is the token's millisecond issue time, so a login
 * in the same second right after a reset is not caught by it.
 */
export function isCutOff(session: { readonly tokenId: string; readonly issuedAt: number }, cutoff: SessionCutoff | undefined): boolean {
  if (cutoff === undefined) return false;
  return session.issuedAt < cutoff.beforeMs && session.tokenId !== cutoff.keepTokenId;
}
