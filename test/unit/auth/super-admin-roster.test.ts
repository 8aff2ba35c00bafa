import { describe, expect, it } from 'vitest';
import { isRosteredSession, parseSuperAdminRoster } from '../../../src/auth/super-admin/roster.js';
import type { SessionClaims } from '../../../src/auth/token-service.js';

const claims = (email: string, tokenType?: SessionClaims['tokenType']): SessionClaims => ({
  userId: 'u1',
  email,
  merchantId: 'm1',
  role: 'admin',
  ...(tokenType !== undefined ? { tokenType } : {}),
  tokenId: 't1',
  issuedAt: 0,
  expiresAt: 1,
});

describe('the super-admin roster', () => {
  it('parses a comma list, trimmed and lower-cased, without blanks', () => {
    expect([...parseSuperAdminRoster(' Root@A.example, ,b@b.example,')]).toEqual(['root@a.example', 'b@b.example']);
    expect(parseSuperAdminRoster('').size).toBe(0);
  });

  it('admits a standard or view session whose email is rostered, case-insensitively', () => {
    const roster = parseSuperAdminRoster('root@a.example');
    expect(isRosteredSession(roster, claims('ROOT@a.example'))).toBe(true);
    expect(isRosteredSession(roster, claims('root@a.example', 'standard'))).toBe(true);
    expect(isRosteredSession(roster, claims('root@a.example', 'super_admin_view'))).toBe(true);
    expect(isRosteredSession(roster, claims('other@a.example'))).toBe(false);
  });

  it('never admits an SSO handoff session or an empty email', () => {
    const roster = parseSuperAdminRoster('root@a.example');
    expect(isRosteredSession(roster, claims('root@a.example', 'hs_redirect'))).toBe(false);
    expect(isRosteredSession(parseSuperAdminRoster(','), claims(''))).toBe(false);
  });
});
