import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/events/event-envelope.js';
import { unattributedMerchant } from '../../src/generation/publish-llm-calls.js';
import { createManualClock } from '../../src/time/clock.js';
import { captureMail, tokenOf, type CapturedMail } from '../helpers/mail-capture.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { createMerchant, createTestApp, signUp, testPassword, withKey, withToken, type TestApp } from '../helpers/test-app.js';

const newPassword = 'amber-orchard-telescope-31';
const wrongPassword = 'definitely-not-the-password-9';
const accountActions = ['password_change', 'password_reset_request', 'password_reset', 'email_verify'];

/*
 * The account routes on the audit trail (issue 25): every password change, reset request, reset and
 * email verification, refusals included, is an auth.attempted event (credential password, an
 * action) carried by the analytics sink into chDB and listed by /analytics/log-summaries of the
 * user's merchant. Never a token or a password; an unknown email's reset request goes to the
 * reserved placeholder merchant (as a refused login's does) and its HTTP answer is a known one's.
 */
describe('password change, reset and email verification on the audit trail (embedded, chDB)', () => {
  const now = Date.UTC(2026, 0, 20, 9, 0, 0);
  const origin = { remoteAddress: '10.4.5.6', headers: { 'user-agent': 'account-audit-test' } };
  let analytics: ChdbAnalyticsUnderTest;
  let t: TestApp;
  let mail: CapturedMail;
  let key: Record<string, string>;
  let otherKey: Record<string, string>;
  let userId: string;
  const secrets: string[] = [testPassword, newPassword, wrongPassword];
  const answers: Record<'known' | 'unknown', { status: number; body: string }> = { known: { status: 0, body: '' }, unknown: { status: 0, body: '' } };

  const post = (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, remoteAddress: origin.remoteAddress, headers: { ...origin.headers, ...headers }, payload });
  const verify = (token: string) =>
    t.app.inject({ method: 'GET', url: `/auth/verify-email?token=${encodeURIComponent(token)}`, remoteAddress: origin.remoteAddress, headers: origin.headers });

  beforeAll(async () => {
    analytics = await openChdbAnalytics('account-audit');
    const clock = createManualClock(now);
    mail = captureMail();
    t = await createTestApp({ clock, analytics: analytics.store, mailer: mail.mailer });
    await analytics.startSink(t.bus, clock);
    key = withKey((await createMerchant(t.app, 'acct-shop')).apiKey);
    otherKey = withKey((await createMerchant(t.app, 'other-shop')).apiKey);
    const owner = await signUp(t.app, 'owner@acct.example', 'acct-shop');
    userId = owner.userId;

    // Email verification: once, then the same token again (refused).
    const verification = tokenOf((await mail.nth(0)).text);
    secrets.push(verification);
    expect((await verify(verification)).statusCode).toBe(200);
    expect((await verify(verification)).statusCode).toBe(400);

    // Password change: a wrong current password, then the right one.
    clock.advance(5);
    const wrong = await post('/auth/change-password', { current_password: wrongPassword, new_password: newPassword }, withToken(owner.token));
    expect(wrong.statusCode, wrong.body).toBe(401);
    const changed = await post('/auth/change-password', { current_password: testPassword, new_password: newPassword }, withToken(owner.token));
    expect(changed.statusCode, changed.body).toBe(200);

    // Reset requests: the account's and an unknown email's, answered alike.
    const known = await post('/auth/forgot-password', { email: 'owner@acct.example' });
    const unknown = await post('/auth/forgot-password', { email: 'ghost@acct.example' });
    answers.known = { status: known.statusCode, body: known.body };
    answers.unknown = { status: unknown.statusCode, body: unknown.body };
    const resetToken = tokenOf((await mail.nth(1)).text);
    secrets.push(resetToken);

    // Reset: an unknown token, then the mailed one.
    expect((await post('/auth/reset-password', { token: 'not-a-real-reset-token-0000000000000', new_password: testPassword })).statusCode).toBe(400);
    const reset = await post('/auth/reset-password', { token: resetToken, new_password: testPassword });
    expect(reset.statusCode, reset.body).toBe(200);

    await t.eventsCaughtUp();
    await analytics.caughtUp();
  }, 180_000);

  afterAll(async () => {
    await analytics?.close(t);
  });

  const accountEvents = () =>
    t.events
      .filter((event): event is EventEnvelope<'auth.attempted'> => event.type === 'auth.attempted')
      .filter((event) => event.payload.credential === 'password' && accountActions.includes(event.payload.action ?? ''));

  it('publishes one auth.attempted event per account action, in the merchant of the user, refusals with their reason', () => {
    expect(
      accountEvents().map((event) => [event.merchantId, event.payload.action, event.payload.outcome, event.payload.reason, event.payload.subject]),
    ).toEqual([
      ['acct-shop', 'email_verify', 'success', null, 'owner@acct.example'],
      [unattributedMerchant, 'email_verify', 'failure', 'invalid_token', null],
      ['acct-shop', 'password_change', 'failure', 'invalid_credentials', 'owner@acct.example'],
      ['acct-shop', 'password_change', 'success', null, 'owner@acct.example'],
      ['acct-shop', 'password_reset_request', 'success', null, 'owner@acct.example'],
      [unattributedMerchant, 'password_reset_request', 'failure', 'invalid_credentials', 'ghost@acct.example'],
      [unattributedMerchant, 'password_reset', 'failure', 'invalid_token', null],
      ['acct-shop', 'password_reset', 'success', null, 'owner@acct.example'],
    ]);
    for (const event of accountEvents()) {
      expect(event.payload).toMatchObject({ sourceAddress: '10.4.5.6', userAgent: 'account-audit-test', keyId: null });
      expect(event.payload.userId).toBe(event.payload.subject === 'owner@acct.example' ? userId : null);
    }
    expect(accountEvents().map((event) => event.payload.route)).toEqual([
      '/auth/verify-email',
      '/auth/verify-email',
      '/auth/change-password',
      '/auth/change-password',
      '/auth/forgot-password',
      '/auth/forgot-password',
      '/auth/reset-password',
      '/auth/reset-password',
    ]);
  });

  it('answers an unknown email exactly as a known one', () => {
    expect(answers.unknown).toEqual(answers.known);
    expect(answers.known.status).toBe(200);
  });

  it('never carries a token or a password in any event', () => {
    const events = JSON.stringify(t.events);
    for (const secret of secrets) expect(events).not.toContain(secret);
  });

  it("lists them in the user's merchant's /analytics/log-summaries, and in no other merchant's", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/analytics/log-summaries', headers: key });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { errors: Record<string, unknown>[]; samples: Record<string, unknown>[] };
    const rows = body.errors.map((group) => [group['route'], group['error_message'], group['count']]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['/auth/verify-email', 'Email verification for owner@acct.example from 10.4.5.6', 1],
        ['/auth/change-password', 'Password change refused for owner@acct.example from 10.4.5.6: invalid_credentials', 1],
        ['/auth/change-password', 'Password change for owner@acct.example from 10.4.5.6', 1],
        ['/auth/forgot-password', 'Password reset request for owner@acct.example from 10.4.5.6', 1],
        ['/auth/reset-password', 'Password reset for owner@acct.example from 10.4.5.6', 1],
      ]),
    );
    const flows = body.samples.map((sample) => sample['flow_type']);
    expect(flows.filter((flow) => flow === 'auth_account_success')).toHaveLength(4);
    expect(flows.filter((flow) => flow === 'auth_account_failure')).toHaveLength(1);
    // A login's success stays out of the summaries (signup and the logins above are not listed).
    expect(flows).not.toContain('auth_password_success');
    for (const secret of secrets) expect(response.body).not.toContain(secret);
    expect(response.body).not.toContain('ghost@acct.example');

    const other = await t.app.inject({ method: 'GET', url: '/analytics/log-summaries', headers: otherKey });
    expect(other.statusCode).toBe(200);
    expect(other.body).not.toContain('Password');
    expect(other.body).not.toContain('owner@acct.example');
  });
});
