import type { SessionClaims } from '../token-service.js';

/** The super-admin roster (SUPER_ADMIN_EMAILS): lower-cased, trimmed, blanks dropped. */
export function parseSuperAdminRoster(list: string): ReadonlySet<string> {
  return new Set(
    list
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter((email) => email !== ''),
  );
}

/**
 * Whether a session belongs to a rostered super-admin (decision-engine `roster_admits`): only a
 * session issued against a real account (standard, or the view session a super-admin is already
 * in), never an SSO handoff session, which may carry a rostered email; emails compared
 * case-insensitively; an empty email never matches.
 */
export function isRosteredSession(roster: ReadonlySet<string>, claims: SessionClaims): boolean {
  const kind = claims.tokenType ?? 'standard';
  if (kind !== 'standard' && kind !== 'super_admin_view') return false;
  const email = claims.email.trim().toLowerCase();
  return email !== '' && roster.has(email);
}
