import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashOneTimeToken } from '../../src/auth/password-reset/one-time-token.js';
import { captureMail, tokenOf, type CapturedMail } from '../helpers/mail-capture.js';
import { createMerchant, createTestApp, logIn, signUp, testPassword, withToken, type TestApp } from '../helpers/test-app.js';

const newPassword = 'copper-meadow-lighthouse-77';
const forgotMessage = 'If an account exists for that email, a password reset link has been sent.';

describe('password change, forgot / reset password and email verification (issue 25)', () => {
  let t: TestApp;
  let mail: CapturedMail;
  beforeEach(async () => {
    mail = captureMail();
    t = await createTestApp({ mailer: mail.mailer });
    await createMerchant(t.app, 'm1');
  });
  afterEach(async () => t.close());

  const me = (token: string) => t.app.inject({ method: 'GET', url: '/auth/me', headers: withToken(token) });
  const login = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  const change = (token: string, current: string, next: string) =>
    t.app.inject({ method: 'POST', url: '/auth/change-password', headers: withToken(token), payload: { current_password: current, new_password: next } });
  const forgot = (email: string) => t.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email } });
  const reset = (token: string, password: string) => t.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, new_password: password } });
  const verify = (token: string) => t.app.inject({ method: 'GET', url: `/auth/verify-email?token=${encodeURIComponent(token)}` });

  /** After a signup (mail 0 is its verification link), asks for a reset: mail 1 and its token. */
  async function resetTokenFor(email: string): Promise<string> {
    await mail.nth(0);
    expect((await forgot(email)).statusCode).toBe(200);
    const message = await mail.nth(1);
    expect(message).toMatchObject({ to: email, purpose: 'password_reset' });
    return tokenOf(message.text);
  }

  describe('POST /auth/change-password', () => {
    it('changes the password, keeps the calling session and revokes every other session of the user', async () => {
      const { token: caller } = await signUp(t.app, 'ops@example.com', 'm1');
      t.clock.advance(5);
      const other = await logIn(t.app, 'ops@example.com');
      t.clock.advance(5);
      const response = await change(caller, testPassword, newPassword);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'Password updated successfully.' });
      expect((await me(caller)).statusCode).toBe(200);
      const refused = await me(other);
      expect(refused.statusCode).toBe(401);
      expect(refused.body).toBe('Invalid or expired token');
      expect((await login('ops@example.com', testPassword)).statusCode).toBe(401);
      t.clock.advance(5);
      const fresh = await login('ops@example.com', newPassword);
      expect(fresh.statusCode).toBe(200);
      expect((await me(fresh.json().token)).statusCode).toBe(200);
    });

    it('refuses a wrong current password (401, decision-engine message) and changes nothing', async () => {
      const { token } = await signUp(t.app, 'ops@example.com', 'm1');
      const response = await change(token, 'not-my-password-at-all', newPassword);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ code: 'TE_04', message: 'Invalid email or password', data: null });
      expect((await login('ops@example.com', testPassword)).statusCode).toBe(200);
    });

    it('applies the password policy to the new password (400 naming the rule)', async () => {
      const { token } = await signUp(t.app, 'ops@example.com', 'm1');
      for (const [weak, message] of [
        ['short', 'Password must be at least 10 characters long'],
        ['password123', 'Password is too common: it is on the list of most frequently used passwords'],
        ['ops-ops-ops-ops', 'Password must not contain the part of your email address before the @'],
      ] as const) {
        const response = await change(token, testPassword, weak);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ code: 'TE_04', message, data: null });
      }
      expect((await login('ops@example.com', testPassword)).statusCode).toBe(200);
    });

    it('needs a session token; a body without the fields is refused before any check', async () => {
      expect((await t.app.inject({ method: 'POST', url: '/auth/change-password', payload: { current_password: 'a', new_password: 'b' } })).statusCode).toBe(
        401,
      );
      const { token } = await signUp(t.app, 'ops@example.com', 'm1');
      const missing = await t.app.inject({
        method: 'POST',
        url: '/auth/change-password',
        headers: withToken(token),
        payload: { current_password: testPassword },
      });
      expect(missing.statusCode).toBeGreaterThanOrEqual(400);
      expect(missing.statusCode).toBeLessThan(500);
      expect(missing.body).toMatch(/new_password/);
    });
  });

  describe('POST /auth/forgot-password', () => {
    it('answers a known and an unknown email identically, and mails only the known one', async () => {
      await signUp(t.app, 'ops@example.com', 'm1');
      await mail.nth(0); // the signup's verification mail
      const known = await forgot('ops@example.com');
      const unknown = await forgot('nobody@example.com');
      const malformed = await forgot('not an email');
      for (const response of [known, unknown, malformed]) {
        expect(response.statusCode).toBe(200);
        expect(response.body).toBe(JSON.stringify({ message: forgotMessage }));
        const { 'x-request-id': _id, date: _date, ...headers } = response.headers;
        const { 'x-request-id': _knownId, date: _knownDate, ...knownHeaders } = known.headers;
        expect(headers).toEqual(knownHeaders);
      }
      const message = await mail.nth(1);
      await t.app.close(); // waits for every delivery still under way
      expect(mail.delivered.map((m) => m.to)).toEqual(['ops@example.com', 'ops@example.com']);
      expect(message.purpose).toBe('password_reset');
      expect(message.text).toContain('/reset-password?token=');
    });

    it('keeps only the SHA-256 of the token: the raw token is no key of the store', async () => {
      await signUp(t.app, 'ops@example.com', 'm1');
      const token = await resetTokenFor('ops@example.com');
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      expect(await t.state.credentials.consumeOneTimeToken('password_reset', token)).toBeUndefined();
      expect(await t.state.credentials.consumeOneTimeToken('password_reset', hashOneTimeToken(token))).toBeDefined();
    });

    it('writes each message to the outbox as an .eml and a .json file', async () => {
      await signUp(t.app, 'ops@example.com', 'm1');
      const token = await resetTokenFor('ops@example.com');
      const files = readdirSync(mail.dir).sort();
      expect(files.filter((f) => f.endsWith('.eml'))).toHaveLength(2);
      expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(2);
      const resetEml = files.find((f) => f.includes('password_reset') && f.endsWith('.eml'));
      expect(resetEml).toBeDefined();
      const eml = readFileSync(join(mail.dir, resetEml ?? ''), 'utf8');
      expect(eml).toMatch(/^To: ops@example\.com\r\n/);
      expect(eml).toContain(token);
    });
  });

  describe('POST /auth/reset-password', () => {
    it('sets the new password once, revokes every session of the user, and the token does not work twice', async () => {
      const { token: session } = await signUp(t.app, 'ops@example.com', 'm1');
      const resetToken = await resetTokenFor('ops@example.com');
      t.clock.advance(5);
      const first = await reset(resetToken, newPassword);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ message: 'Password reset successfully. You can now sign in with your new password.' });
      expect((await me(session)).statusCode).toBe(401);
      t.clock.advance(5);
      expect((await login('ops@example.com', testPassword)).statusCode).toBe(401);
      expect((await login('ops@example.com', newPassword)).statusCode).toBe(200);
      const second = await reset(resetToken, 'another-fine-passphrase-9');
      expect(second.statusCode).toBe(400);
      expect(second.json()).toEqual({ code: 'TE_04', message: 'Invalid or expired password reset token', data: null });
      expect((await login('ops@example.com', newPassword)).statusCode).toBe(200);
    });

    it('refuses an unknown token and a token from the unknown-email path', async () => {
      await forgot('nobody@example.com');
      for (const token of ['', 'x'.repeat(43), 'not-a-token']) {
        const response = await reset(token, newPassword);
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toBe('Invalid or expired password reset token');
      }
    });

    it('refuses an expired token (30 minutes by default)', async () => {
      await signUp(t.app, 'ops@example.com', 'm1');
      const token = await resetTokenFor('ops@example.com');
      t.clock.advance(30 * 60 * 1000 + 1);
      const response = await reset(token, newPassword);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Invalid or expired password reset token');
      expect((await login('ops@example.com', testPassword)).statusCode).toBe(200);
    });

    it('does not spend the token on a password the policy refuses', async () => {
      await signUp(t.app, 'ops@example.com', 'm1');
      const token = await resetTokenFor('ops@example.com');
      const weak = await reset(token, 'short');
      expect(weak.statusCode).toBe(400);
      expect(weak.json().message).toBe('Password must be at least 10 characters long');
      expect((await reset(token, newPassword)).statusCode).toBe(200);
    });
  });

  describe('GET /auth/verify-email', () => {
    it('marks the user verified with the token mailed at signup, once', async () => {
      const { userId } = await signUp(t.app, 'ops@example.com', 'm1');
      const message = await mail.nth(0);
      expect(message).toMatchObject({ to: 'ops@example.com', purpose: 'email_verification' });
      expect(await t.state.credentials.isEmailVerified(userId)).toBe(false);
      const first = await verify(tokenOf(message.text));
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ message: 'Email verified successfully. You can now log in.' });
      expect(await t.state.credentials.isEmailVerified(userId)).toBe(true);
      const second = await verify(tokenOf(message.text));
      expect(second.statusCode).toBe(400);
      expect(second.json()).toEqual({ code: 'TE_04', message: 'Invalid or expired verification token', data: null });
    });

    it('refuses a reset token (tokens are per purpose) and a missing token', async () => {
      await signUp(t.app, 'ops@example.com', 'm1');
      const resetToken = await resetTokenFor('ops@example.com');
      expect((await verify(resetToken)).statusCode).toBe(400);
      const missing = await t.app.inject({ method: 'GET', url: '/auth/verify-email' });
      expect(missing.statusCode).toBe(400);
      expect((await reset(resetToken, newPassword)).statusCode).toBe(200);
    });
  });
});

describe('reset token lifetime from PASSWORD_RESET_TTL_SECONDS', () => {
  it('honours a configured lifetime', async () => {
    const mail = captureMail();
    const t = await createTestApp({ mailer: mail.mailer, env: { PASSWORD_RESET_TTL_SECONDS: '120' } });
    try {
      await signUp(t.app, 'ops@example.com');
      await mail.nth(0);
      await t.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: 'ops@example.com' } });
      const early = tokenOf((await mail.nth(1)).text);
      await t.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: 'ops@example.com' } });
      const late = tokenOf((await mail.nth(2)).text);
      t.clock.advance(119_000);
      expect((await t.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token: early, new_password: newPassword } })).statusCode).toBe(200);
      t.clock.advance(2_000);
      expect((await t.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token: late, new_password: newPassword } })).statusCode).toBe(400);
    } finally {
      await t.close();
    }
  });
});
