import { describe, expect, it } from 'vitest';
import { generateMemberPassword } from '../../../src/auth/members/generate-password.js';
import { memberRoleOf } from '../../../src/auth/members/merchant-members.js';
import { checkPassword } from '../../../src/auth/password-policy.js';

describe('generateMemberPassword', () => {
  it('makes 16 characters with every class, passing the password policy, never twice the same', () => {
    const seen = new Set<string>();
    for (let round = 0; round < 200; round += 1) {
      const password = generateMemberPassword();
      expect(password).toMatch(/^[A-Za-z0-9!@#$%^&*]{16}$/);
      for (const pattern of [/[A-Z]/, /[a-z]/, /[0-9]/, /[!@#$%^&*]/]) expect(password).toMatch(pattern);
      expect(checkPassword(password, 'invitee@example.com')).toEqual({ ok: true });
      seen.add(password);
    }
    expect(seen.size).toBe(200);
  });
});

describe('memberRoleOf', () => {
  it("keeps decision-engine's two roles and makes anything else a member", () => {
    expect(memberRoleOf('admin')).toBe('admin');
    for (const requested of ['member', 'Admin', 'owner', '', null, undefined]) expect(memberRoleOf(requested)).toBe('member');
  });
});
