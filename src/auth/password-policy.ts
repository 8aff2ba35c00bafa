import { isCommonPassword } from './common-passwords.js';

/**
 * OWASP ASVS 5.0 (V6.2): at least 10 characters, up to at least 64 allowed (we allow 128), no
 * composition rules, refuse common passwords and ones built from the account's own identifiers.
 * Length counts Unicode code points, so a passphrase in any script is measured as typed.
 */
export const passwordMinLength = 10;
export const passwordMaxLength = 128;

/** A local part shorter than this ("jo@…") would reject too many unrelated passwords. */
const minLocalPartLength = 3;

export type PasswordRule = 'too_short' | 'too_long' | 'common' | 'contains_email';

export type PasswordCheck = { readonly ok: true } | { readonly ok: false; readonly reason: PasswordRule; readonly message: string };

/**
 * Checks a new password against the policy. The first rule broken is reported, and its message
 * names that rule (it is shown to the user as is).
 *
 * @remarks Deliberately no "upper, lower, digit, symbol" rule (decision-engine had one): ASVS 5.0
 * and NIST SP 800-63B drop composition rules because they push users to predictable patterns.
 */
export function checkPassword(password: string, email: string): PasswordCheck {
  const length = [...password].length;
  if (length < passwordMinLength) {
    return fail('too_short', `Password must be at least ${passwordMinLength} characters long`);
  }
  if (length > passwordMaxLength) {
    return fail('too_long', `Password must be at most ${passwordMaxLength} characters long`);
  }
  if (isCommonPassword(password)) {
    return fail('common', 'Password is too common: it is on the list of most frequently used passwords');
  }
  const localPart = emailLocalPart(email).toLowerCase();
  if (localPart.length >= minLocalPartLength && password.toLowerCase().includes(localPart)) {
    return fail('contains_email', 'Password must not contain the part of your email address before the @');
  }
  return { ok: true };
}

function emailLocalPart(email: string): string {
  const at = email.lastIndexOf('@');
  return at === -1 ? email : email.slice(0, at);
}

function fail(reason: PasswordRule, message: string): PasswordCheck {
  return { ok: false, reason, message };
}
