import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkPassword } from '../../src/auth/password-policy.js';
import { createMerchant, createTestApp, signUp, testPassword, withKey, withToken, type TestApp } from '../helpers/test-app.js';

interface Member {
  readonly user_id: string;
  readonly email: string;
  readonly role: string;
}

interface Invited {
  readonly email: string;
  readonly is_new_user: boolean;
  readonly password?: string;
  readonly role: string;
}

describe('merchant members and roles (embedded)', () => {
  let t: TestApp;
  let adminToken: string;
  let adminId: string;

  beforeEach(async () => {
    t = await createTestApp();
    await createMerchant(t.app, 'mb');
    await createMerchant(t.app, 'ma');
    ({ token: adminToken, userId: adminId } = await signUp(t.app, 'admin@example.com', 'mb'));
  });
  afterEach(async () => t.close());

  const list = async (token: string) => t.app.inject({ method: 'GET', url: '/merchant/members', headers: withToken(token) });
  const invite = async (token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/merchant/members/invite', headers: withToken(token), payload });
  const remove = async (token: string, userId: string) =>
    t.app.inject({ method: 'DELETE', url: `/merchant/members/${encodeURIComponent(userId)}`, headers: withToken(token) });
  const login = async (email: string, password: string) => {
    const response = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { token: string; user_id: string; merchant_id: string; role: string };
  };

  it('lists the signed-up admin as the merchant’s only member', async () => {
    const response = await list(adminToken);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([{ user_id: adminId, email: 'admin@example.com', role: 'admin' }]);
  });

  it('invites a new email: creates the user with a generated password that signs in once answered', async () => {
    const response = await invite(adminToken, { email: 'new@example.com' });
    expect(response.statusCode, response.body).toBe(200);
    const invited = response.json() as Invited;
    expect(invited).toMatchObject({ email: 'new@example.com', is_new_user: true, role: 'member' });
    expect(invited.password).toMatch(/^[A-Za-z0-9!@#$%^&*]{16}$/);
    expect(checkPassword(invited.password ?? '', 'new@example.com')).toEqual({ ok: true });
    // Two invites never share a password.
    const second = (await invite(adminToken, { email: 'other@example.com' })).json() as Invited;
    expect(second.password).not.toBe(invited.password);

    const session = await login('new@example.com', invited.password ?? '');
    expect([session.merchant_id, session.role]).toEqual(['mb', 'member']);
    const members = (await list(adminToken)).json() as Member[];
    expect(members.map((member) => [member.email, member.role])).toEqual([
      ['admin@example.com', 'admin'],
      ['new@example.com', 'member'],
      ['other@example.com', 'member'],
    ]);
    expect(members.find((member) => member.email === 'new@example.com')?.user_id).toBe(session.user_id);
  });

  it('adds an existing user without a password, keeping theirs, in the role asked', async () => {
    const { userId } = await signUp(t.app, 'existing@example.com');
    const response = await invite(adminToken, { email: 'existing@example.com', role: 'admin' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ email: 'existing@example.com', is_new_user: false, role: 'admin' });
    // A user with no merchant yet now starts in this one.
    const session = await login('existing@example.com', testPassword);
    expect([session.user_id, session.merchant_id, session.role]).toEqual([userId, 'mb', 'admin']);
  });

  it('keeps the current merchant of an invited user who already has one', async () => {
    await signUp(t.app, 'elsewhere@example.com', 'ma');
    expect((await invite(adminToken, { email: 'elsewhere@example.com' })).statusCode).toBe(200);
    const session = await login('elsewhere@example.com', testPassword);
    expect(session.merchant_id).toBe('ma');
    const switched = await t.app.inject({ method: 'POST', url: '/auth/switch-merchant', headers: withToken(session.token), payload: { merchant_id: 'mb' } });
    expect((switched.json() as { role: string }).role).toBe('member');
  });

  it('answers 409 to inviting a current member, in any role, the admin included', async () => {
    expect((await invite(adminToken, { email: 'twice@example.com' })).statusCode).toBe(200);
    for (const payload of [{ email: 'twice@example.com' }, { email: 'twice@example.com', role: 'admin' }, { email: 'admin@example.com' }]) {
      const response = await invite(adminToken, payload);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ code: 'TE_04', message: 'User is already a member of this merchant', data: null });
    }
  });

  it('falls back to member for an unknown, null or differently cased role', async () => {
    for (const [email, role] of [
      ['owner@example.com', 'owner'],
      ['null@example.com', null],
      ['upper@example.com', 'ADMIN'],
    ] as const) {
      const response = await invite(adminToken, { email, role });
      expect(response.statusCode, response.body).toBe(200);
      expect((response.json() as Invited).role).toBe('member');
    }
  });

  it('refuses malformed invites with 4xx naming the field, never 500', async () => {
    for (const payload of [{}, { email: 'not-an-email' }, { email: 42 }, { email: 'a@example.com', role: 'x'.repeat(65) }]) {
      const response = await invite(adminToken, payload);
      // decision-engine's axum answers: 422 for a missing or mistyped field, 400 for a value out of its schema.
      expect([400, 422], `${JSON.stringify(payload)}: ${response.body}`).toContain(response.statusCode);
      expect(response.body).toMatch(/email|role/);
    }
  });

  it('lets a member read (members, merchant data) but not invite, remove or change anything', async () => {
    const invited = (await invite(adminToken, { email: 'reader@example.com' })).json() as Invited;
    const reader = await login('reader@example.com', invited.password ?? '');
    const readable = await list(reader.token);
    expect(readable.statusCode).toBe(200);
    expect((readable.json() as Member[]).map((member) => member.email)).toContain('reader@example.com');
    expect((await t.app.inject({ method: 'GET', url: '/merchant-account/mb', headers: withToken(reader.token) })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/rule/get', headers: withToken(reader.token), payload: { merchant_id: 'mb', algorithm: 'successRate' } }))
        .statusCode,
    ).not.toBe(403);

    const refusal = "Forbidden: role 'member' can only read merchant 'mb'; ask an admin of the merchant";
    for (const response of [
      await invite(reader.token, { email: 'sneaky@example.com' }),
      await remove(reader.token, adminId),
      await t.app.inject({ method: 'POST', url: '/api-key/create', headers: withToken(reader.token), payload: { merchant_id: 'mb' } }),
      await t.app.inject({ method: 'PUT', url: '/merchant-account/mb/gsm-rules', headers: withToken(reader.token), payload: { rules: [] } }),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.body).toBe(refusal);
    }
    expect(((await list(adminToken)).json() as Member[]).map((member) => member.email)).not.toContain('sneaky@example.com');
  });

  it("roles bind sessions only: the merchant's API keys keep writing", async () => {
    const { apiKey } = await createMerchant(t.app, 'mk');
    const response = await t.app.inject({ method: 'POST', url: '/api-key/create', headers: withKey(apiKey), payload: { merchant_id: 'mk' } });
    expect(response.statusCode).toBe(200);
  });

  it('removes a member: gone from the list, its next login starts elsewhere, a removed admin loses write at once', async () => {
    const invited = (await invite(adminToken, { email: 'second-admin@example.com', role: 'admin' })).json() as Invited;
    const second = await login('second-admin@example.com', invited.password ?? '');
    expect(second.role).toBe('admin');
    const gsm = async (token: string) =>
      t.app.inject({ method: 'PUT', url: '/merchant-account/mb/gsm-rules', headers: withToken(token), payload: { rules: [] } });
    expect((await gsm(second.token)).statusCode).toBe(200);

    const response = await remove(adminToken, second.user_id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ user_id: second.user_id, removed: true });
    expect(((await list(adminToken)).json() as Member[]).map((member) => member.email)).toEqual(['admin@example.com']);
    // Its token still says admin of mb; the membership is read now: the session is refused outright.
    expect((await gsm(second.token)).statusCode).toBe(401);
    expect((await invite(second.token, { email: 'revenge@example.com' })).statusCode).toBe(401);
    expect((await list(second.token)).statusCode).toBe(401);
    expect((await login('second-admin@example.com', invited.password ?? '')).merchant_id).toBe('');

    const again = await remove(adminToken, second.user_id);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ code: 'TE_04', message: 'Member not found', data: null });
  });

  it('a demoted admin (removed, invited back as member) is read-only with its old token', async () => {
    const invited = (await invite(adminToken, { email: 'demoted@example.com', role: 'admin' })).json() as Invited;
    const old = await login('demoted@example.com', invited.password ?? '');
    expect((await remove(adminToken, old.user_id)).statusCode).toBe(200);
    expect((await invite(adminToken, { email: 'demoted@example.com', role: 'member' })).json()).toMatchObject({ is_new_user: false, role: 'member' });
    expect((await list(old.token)).statusCode).toBe(200);
    const write = await t.app.inject({ method: 'POST', url: '/api-key/create', headers: withToken(old.token), payload: { merchant_id: 'mb' } });
    expect(write.statusCode).toBe(403);
  });

  it('never removes the last admin', async () => {
    const response = await remove(adminToken, adminId);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ code: 'TE_04', message: 'The last admin of a merchant cannot be removed', data: null });
    expect(((await list(adminToken)).json() as Member[]).map((member) => member.role)).toEqual(['admin']);
  });

  it("keeps to the session's merchant: another merchant's admin neither sees nor removes mb's members", async () => {
    const invited = (await invite(adminToken, { email: 'mb-member@example.com' })).json() as Invited;
    const member = await login('mb-member@example.com', invited.password ?? '');
    const { token: intruder } = await signUp(t.app, 'intruder@example.com', 'ma');

    const own = (await list(intruder)).json() as Member[];
    expect(own.map((entry) => entry.email)).toEqual(['intruder@example.com']);
    const named = await t.app.inject({ method: 'GET', url: '/merchant/members', query: { merchant_id: 'mb' }, headers: withToken(intruder) });
    expect(named.statusCode).toBe(403);
    expect(named.body).toBe("Forbidden: this credential is for merchant 'ma', not 'mb'");

    expect((await remove(intruder, member.user_id)).statusCode).toBe(404);
    expect(((await list(adminToken)).json() as Member[]).map((entry) => entry.email)).toContain('mb-member@example.com');
    // An invite from ma adds to ma only.
    expect((await invite(intruder, { email: 'mb-member@example.com' })).statusCode).toBe(200);
    expect(((await list(adminToken)).json() as Member[]).filter((entry) => entry.email === 'mb-member@example.com')).toHaveLength(1);
  });

  it('refuses every members route without a session (API keys are not accepted)', async () => {
    const { apiKey } = await createMerchant(t.app, 'mk2');
    for (const response of [
      await t.app.inject({ method: 'GET', url: '/merchant/members' }),
      await t.app.inject({ method: 'GET', url: '/merchant/members', headers: withKey(apiKey) }),
      await t.app.inject({ method: 'POST', url: '/merchant/members/invite', headers: withKey(apiKey), payload: { email: 'k@example.com' } }),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(response.body).toBe('Missing authentication credentials');
    }
  });

  it('answers an empty list to a session without a merchant, and 403 to its invites', async () => {
    const { token } = await signUp(t.app, 'loner@example.com');
    expect((await list(token)).json()).toEqual([]);
    const response = await invite(token, { email: 'friend@example.com' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ code: 'TE_04', message: 'Insufficient permissions', data: null });
    expect(await t.state.users.findByEmail('friend@example.com')).toBeUndefined();
  });
});
