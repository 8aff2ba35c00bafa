import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password-hash.js';
import { adminSecret, createMerchant, createTestApp, decideBody, logIn, signUp, testPassword, withKey, withToken, type TestApp } from '../helpers/test-app.js';

const jwtShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const plainText = 'text/plain; charset=utf-8';

describe('operator auth routes', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
    await createMerchant(t.app, 'm1');
    await createMerchant(t.app, 'm2');
  });
  afterEach(async () => t.close());

  const signup = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/auth/signup', headers, payload });
  const login = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  const me = (token: string) => t.app.inject({ method: 'GET', url: '/auth/me', headers: withToken(token) });

  describe('POST /auth/signup', () => {
    it('creates a user without a merchant and answers an AuthResponse with merchant_id ""', async () => {
      const response = await signup({ email: 'ops@example.com', password: testPassword });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(Object.keys(body).sort()).toEqual(['email', 'merchant_id', 'merchants', 'role', 'token', 'user_id']);
      expect(body).toMatchObject({ email: 'ops@example.com', merchant_id: '', role: 'admin', merchants: [] });
      expect(body.token).toMatch(jwtShape);
      expect(body.user_id).toMatch(uuidShape);
    });

    it('treats a blank merchant_id as none, without asking for the admin secret', async () => {
      const response = await signup({ email: 'ops@example.com', password: testPassword, merchant_id: '  ' });
      expect(response.statusCode).toBe(200);
      expect(response.json().merchant_id).toBe('');
    });

    it('joins an existing merchant as its admin when the admin secret matches', async () => {
      const response = await signup({ email: 'ops@example.com', password: testPassword, merchant_id: 'm1' }, { 'x-admin-secret': adminSecret });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ merchant_id: 'm1', role: 'admin', merchants: [{ merchant_id: 'm1', merchant_name: 'm1', role: 'admin' }] });
    });

    it('refuses to join a merchant without the right admin secret', async () => {
      for (const headers of [{}, { 'x-admin-secret': 'wrong' }] as Record<string, string>[]) {
        const response = await signup({ email: 'ops@example.com', password: testPassword, merchant_id: 'm1' }, headers);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ code: 'TE_04', message: 'Invalid admin secret', data: null });
      }
      expect(await t.state.users.findByEmail('ops@example.com')).toBeUndefined();
    });

    it('answers 404 Merchant not found when the merchant to join does not exist', async () => {
      const response = await signup({ email: 'ops@example.com', password: testPassword, merchant_id: 'ghost' }, { 'x-admin-secret': adminSecret });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 'TE_04', message: 'Merchant not found', data: null });
    });

    it('answers 409 Email already registered when the email is taken', async () => {
      await signUp(t.app, 'ops@example.com');
      const response = await signup({ email: 'ops@example.com', password: testPassword });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ code: 'TE_04', message: 'Email already registered', data: null });
    });

    it('answers 400 naming the broken rule when the password is weak', async () => {
      const cases = [
        ['short1!', 'Password must be at least 10 characters long'],
        ['password1234', 'Password is too common: it is on the list of most frequently used passwords'],
        ['operator-ops-2026-x', 'Password must not contain the part of your email address before the @'],
      ] as const;
      for (const [password, message] of cases) {
        const response = await signup({ email: 'operator-ops@example.com', password });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ code: 'TE_04', message, data: null });
      }
    });

    it('answers 422 naming the field when the body has the wrong shape', async () => {
      const response = await signup({ email: 'ops@example.com' });
      expect(response.statusCode).toBe(422);
      expect(response.body).toContain('password');
      const badEmail = await signup({ email: 'not-an-email', password: testPassword });
      expect(badEmail.statusCode).toBe(422);
    });
  });

  describe('POST /auth/login', () => {
    it("answers a fresh session in the user's current merchant", async () => {
      await signUp(t.app, 'ops@example.com', 'm1');
      const response = await login('ops@example.com', testPassword);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        email: 'ops@example.com',
        merchant_id: 'm1',
        role: 'admin',
        merchants: [{ merchant_id: 'm1', merchant_name: 'm1', role: 'admin' }],
      });
      expect((await me(response.json().token)).statusCode).toBe(200);
    });

    it('answers the same 401 for an unknown email and for a wrong password', async () => {
      await signUp(t.app, 'ops@example.com');
      const unknown = await login('nobody@example.com', testPassword);
      const wrong = await login('ops@example.com', 'not-the-password-1');
      for (const response of [unknown, wrong]) {
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ code: 'TE_04', message: 'Invalid email or password', data: null });
      }
      expect(unknown.headers['content-type']).toBe(wrong.headers['content-type']);
      expect(unknown.body).toBe(wrong.body);
    });

    it('answers 429 with Retry-After after repeated failures, even to the right password, then lets the user in once it has passed', async () => {
      await signUp(t.app, 'ops@example.com');
      for (let attempt = 0; attempt < 5; attempt++) expect((await login('ops@example.com', 'not-the-password-1')).statusCode).toBe(401);
      const throttled = await login('ops@example.com', testPassword);
      expect(throttled.statusCode).toBe(429);
      expect(throttled.headers['retry-after']).toBe('1');
      expect(throttled.json()).toEqual({ code: 'TE_04', message: 'Too many failed login attempts; try again later', data: null });
      t.clock.advance(1000);
      expect((await login('ops@example.com', testPassword)).statusCode).toBe(200);
    });

    it('throttles an unknown email exactly like a known one, so lockouts reveal no accounts', async () => {
      await signUp(t.app, 'ops@example.com');
      const answers: string[] = [];
      for (const email of ['ops@example.com', 'nobody@example.com']) {
        for (let attempt = 0; attempt < 5; attempt++) await login(email, 'not-the-password-1');
        const response = await login(email, 'not-the-password-1');
        answers.push(`${response.statusCode} ${response.headers['retry-after']} ${response.body}`);
      }
      expect(answers[0]).toMatch(/^429 1 /);
      expect(answers[1]).toBe(answers[0]);
    });

    it('answers 403 Account is inactive only to someone who knows the password', async () => {
      await t.state.users.create({
        userId: 'u-inactive',
        email: 'gone@example.com',
        passwordHash: await hashPassword(testPassword, { logN: 4, r: 8, p: 1 }),
        currentMerchantId: '',
        isActive: false,
        createdAt: t.clock.now(),
      });
      const right = await login('gone@example.com', testPassword);
      expect(right.statusCode).toBe(403);
      expect(right.json()).toEqual({ code: 'TE_04', message: 'Account is inactive', data: null });
      expect((await login('gone@example.com', 'not-the-password-1')).statusCode).toBe(401);
    });
  });

  describe('POST /auth/logout', () => {
    it("revokes the token so that every route refuses it, and leaves the user's other sessions alone", async () => {
      const { token } = await signUp(t.app, 'ops@example.com', 'm1');
      const other = await logIn(t.app, 'ops@example.com');
      const response = await t.app.inject({ method: 'POST', url: '/auth/logout', headers: withToken(token) });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'Logged out successfully' });
      for (const request of [
        { method: 'GET' as const, url: '/auth/me' },
        { method: 'GET' as const, url: '/auth/merchants' },
        { method: 'POST' as const, url: '/decide-gateway', payload: decideBody('m1', 'p1') },
      ]) {
        const refused = await t.app.inject({ ...request, headers: withToken(token) });
        expect(refused.statusCode).toBe(401);
        expect(refused.headers['content-type']).toBe(plainText);
        expect(refused.body).toBe('Invalid or expired token');
      }
      expect((await me(other)).statusCode).toBe(200);
    });

    it('is idempotent for the same token (decision-engine checks signature and expiry, not the denylist) and keeps it revoked', async () => {
      const { token } = await signUp(t.app, 'twice@example.com', 'm1');
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await t.app.inject({ method: 'POST', url: '/auth/logout', headers: withToken(token) });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ message: 'Logged out successfully' });
      }
      const refused = await me(token);
      expect(refused.statusCode).toBe(401);
      expect(refused.body).toBe('Invalid or expired token');
    });

    it('still refuses a bad or expired token with 401', async () => {
      const { token } = await signUp(t.app, 'late@example.com', 'm1');
      const tampered = `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
      const bad = await t.app.inject({ method: 'POST', url: '/auth/logout', headers: withToken(tampered) });
      expect(bad.statusCode).toBe(401);
      expect(bad.body).toBe('Invalid or expired token');
      t.clock.advance(2 * 86_400_000);
      const expired = await t.app.inject({ method: 'POST', url: '/auth/logout', headers: withToken(token) });
      expect(expired.statusCode).toBe(401);
      expect(expired.body).toBe('Invalid or expired token');
    });

    it('takes a Bearer token only, not an API key', async () => {
      const { apiKey } = await createMerchant(t.app, 'm3');
      const response = await t.app.inject({ method: 'POST', url: '/auth/logout', headers: withKey(apiKey) });
      expect(response.statusCode).toBe(401);
      expect(response.body).toBe('Missing authentication credentials');
    });
  });

  describe('GET /auth/me and /auth/merchants', () => {
    it('answers the MeResponse and the membership list', async () => {
      const { token, userId } = await signUp(t.app, 'ops@example.com', 'm1');
      const profile = await me(token);
      expect(profile.statusCode).toBe(200);
      expect(profile.json()).toEqual({
        user_id: userId,
        email: 'ops@example.com',
        merchant_id: 'm1',
        role: 'admin',
        email_verified: true,
        merchants: [{ merchant_id: 'm1', merchant_name: 'm1', role: 'admin' }],
        is_super_admin: false,
        is_super_admin_view: false,
      });
      const merchants = await t.app.inject({ method: 'GET', url: '/auth/merchants', headers: withToken(token) });
      expect(merchants.json()).toEqual([{ merchant_id: 'm1', merchant_name: 'm1', role: 'admin' }]);
    });

    it('refuses an expired, a forged and a malformed token with the same plain-text 401', async () => {
      const { token } = await signUp(t.app, 'ops@example.com', 'm1');
      const [header, payload, signature] = token.split('.') as [string, string, string];
      const forged = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
      for (const bad of [forged, 'not-a-jwt', '']) {
        const response = await t.app.inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${bad}` } });
        expect(response.statusCode).toBe(401);
        expect(response.headers['content-type']).toBe(plainText);
        expect(response.body).toBe('Invalid or expired token');
      }
      t.clock.advance(24 * 3600 * 1000);
      const expired = await me(token);
      expect(expired.statusCode).toBe(401);
      expect(expired.body).toBe('Invalid or expired token');
    });

    it('answers 401 Missing authentication credentials without a token', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/auth/me' });
      expect(response.statusCode).toBe(401);
      expect(response.headers['content-type']).toBe(plainText);
      expect(response.body).toBe('Missing authentication credentials');
    });
  });

  describe('POST /auth/switch-merchant and POST /onboarding/merchant', () => {
    it("onboards a merchant_ + 12 hex merchant whose token works on that merchant's routes", async () => {
      const { token } = await signUp(t.app, 'ops@example.com');
      const response = await t.app.inject({
        method: 'POST',
        url: '/onboarding/merchant',
        headers: withToken(token),
        payload: { merchant_name: 'Corner Shop' },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.merchant_id).toMatch(/^merchant_[0-9a-f]{12}$/);
      expect(body).toEqual({
        token: expect.stringMatching(jwtShape),
        merchant_id: body.merchant_id,
        merchant_name: 'Corner Shop',
        merchants: [{ merchant_id: body.merchant_id, merchant_name: 'Corner Shop', role: 'admin' }],
      });
      const headers = withToken(body.token);
      const rule = await t.app.inject({
        method: 'POST',
        url: '/rule/create',
        headers,
        payload: { merchant_id: body.merchant_id, config: { type: 'successRate', data: { defaultBucketSize: 10 } } },
      });
      expect(rule.statusCode).toBe(200);
      const decision = await t.app.inject({ method: 'POST', url: '/decide-gateway', headers, payload: decideBody(body.merchant_id, 'p1') });
      expect(decision.statusCode).toBe(200);
      expect((await me(body.token)).json().merchant_id).toBe(body.merchant_id);
      // The login after onboarding starts in the new merchant.
      expect((await login('ops@example.com', testPassword)).json().merchant_id).toBe(body.merchant_id);
    });

    it('keeps a session without a merchant to the auth and onboarding routes', async () => {
      const { token } = await signUp(t.app, 'ops@example.com');
      const response = await t.app.inject({
        method: 'POST',
        url: '/rule/get',
        headers: withToken(token),
        payload: { merchant_id: 'm1', algorithm: 'successRate' },
      });
      expect(response.statusCode).toBe(403);
      expect(response.headers['content-type']).toBe(plainText);
      expect(response.body).toBe(
        'Forbidden: this session has no merchant yet; create one with POST /onboarding/merchant or join one with POST /auth/switch-merchant',
      );
      expect((await me(token)).statusCode).toBe(200);
    });

    it('switches to another merchant the user belongs to with a new token, and the old token stays valid', async () => {
      const { token } = await signUp(t.app, 'ops@example.com', 'm1');
      const onboarded = (
        await t.app.inject({ method: 'POST', url: '/onboarding/merchant', headers: withToken(token), payload: { merchant_name: 'Second' } })
      ).json();
      const switched = await t.app.inject({
        method: 'POST',
        url: '/auth/switch-merchant',
        headers: withToken(onboarded.token),
        payload: { merchant_id: 'm1' },
      });
      expect(switched.statusCode).toBe(200);
      const body = switched.json();
      expect(body).toMatchObject({ merchant_id: 'm1', role: 'admin' });
      expect(body.merchants.map((m: { merchant_id: string }) => m.merchant_id).sort()).toEqual([onboarded.merchant_id, 'm1'].sort());
      expect(body.token).not.toBe(onboarded.token);
      expect((await me(onboarded.token)).json().merchant_id).toBe(onboarded.merchant_id);
      expect((await me(body.token)).json().merchant_id).toBe('m1');
    });

    it('answers 404 Merchant not found when switching to a merchant the user does not belong to', async () => {
      const { token } = await signUp(t.app, 'ops@example.com', 'm1');
      for (const merchantId of ['m2', 'ghost']) {
        const response = await t.app.inject({ method: 'POST', url: '/auth/switch-merchant', headers: withToken(token), payload: { merchant_id: merchantId } });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ code: 'TE_04', message: 'Merchant not found', data: null });
      }
    });
  });

  describe('the guard on protected routes', () => {
    it('answers 401 Missing authentication credentials in plain text before looking at the body', async () => {
      for (const request of [
        { payload: { nonsense: true } },
        { headers: { 'content-type': 'application/json' }, payload: '{"merchant_id":' },
        { headers: { 'content-type': 'text/plain' }, payload: 'not json' },
      ]) {
        const response = await t.app.inject({ method: 'POST', url: '/rule/create', ...request });
        expect(response.statusCode).toBe(401);
        expect(response.headers['content-type']).toBe(plainText);
        expect(response.body).toBe('Missing authentication credentials');
        expect(response.headers['x-request-id']).toBeDefined();
      }
    });

    it('answers 401 Invalid API key for a key that is malformed or unknown', async () => {
      for (const key of ['nope', `DE_${'0'.repeat(64)}`]) {
        const response = await t.app.inject({ method: 'POST', url: '/decide-gateway', headers: withKey(key), payload: decideBody('m1', 'p1') });
        expect(response.statusCode).toBe(401);
        expect(response.headers['content-type']).toBe(plainText);
        expect(response.body).toBe('Invalid API key');
      }
    });

    it('never falls back to the API key when a Bearer token is present but invalid', async () => {
      const { apiKey } = await createMerchant(t.app, 'm3');
      const response = await t.app.inject({
        method: 'POST',
        url: '/decide-gateway',
        headers: { ...withKey(apiKey), authorization: 'Bearer nope' },
        payload: decideBody('m3', 'p1'),
      });
      expect(response.statusCode).toBe(401);
      expect(response.body).toBe('Invalid or expired token');
    });

    it('ignores an Authorization header of another scheme and uses the API key', async () => {
      const { apiKey } = await createMerchant(t.app, 'm3');
      const response = await t.app.inject({
        method: 'POST',
        url: '/decide-gateway',
        headers: { ...withKey(apiKey), authorization: 'Basic dXNlcjpwYXNz' },
        payload: decideBody('m3', 'p1'),
      });
      expect(response.statusCode).toBe(200);
    });

    it('answers 403 naming both merchants when the credential is for another merchant', async () => {
      const { apiKey } = await createMerchant(t.app, 'm3');
      const { token } = await signUp(t.app, 'ops@example.com', 'm1');
      const byKey = await t.app.inject({ method: 'POST', url: '/decide-gateway', headers: withKey(apiKey), payload: decideBody('m1', 'p1') });
      expect(byKey.statusCode).toBe(403);
      expect(byKey.headers['content-type']).toBe(plainText);
      expect(byKey.body).toBe("Forbidden: this credential is for merchant 'm3', not 'm1'");
      const byToken = await t.app.inject({ method: 'GET', url: '/merchant-account/m2', headers: withToken(token) });
      expect(byToken.statusCode).toBe(403);
      expect(byToken.body).toBe("Forbidden: this credential is for merchant 'm1', not 'm2'");
    });

    it('refuses an array naming another merchant: bodies are validated as sent (not coerced), so its schema refuses it', async () => {
      const { apiKey } = await createMerchant(t.app, 'm3');
      const response = await t.app.inject({
        method: 'POST',
        url: '/rule/get',
        headers: withKey(apiKey),
        payload: { merchant_id: ['m1'], algorithm: 'successRate' },
      });
      expect(response.statusCode).toBe(422);
    });

    it('guards a route that declares no guard as either, and lists it as undeclared', async () => {
      const fresh = await createTestApp();
      try {
        fresh.app.get('/undeclared', async () => 'reached');
        const { apiKey } = await createMerchant(fresh.app, 'm9');
        expect(fresh.app.routeTable.find((route) => route.url === '/undeclared')).toEqual({
          method: 'GET',
          url: '/undeclared',
          auth: undefined,
          merchantFrom: undefined,
          hasBody: false,
          minRole: 'member',
          sessionKinds: undefined,
        });
        expect((await fresh.app.inject({ method: 'GET', url: '/undeclared' })).statusCode).toBe(401);
        expect((await fresh.app.inject({ method: 'GET', url: '/undeclared', headers: withKey(apiKey) })).body).toBe('reached');
        expect((await fresh.app.inject({ method: 'GET', url: '/undeclared?merchant_id=m1', headers: withKey(apiKey) })).statusCode).toBe(403);
      } finally {
        await fresh.close();
      }
    });

    it('answers 404 for an unknown route without asking for credentials', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/no-such-route' });
      expect(response.statusCode).toBe(404);
    });

    it("documents each protected route's credentials in the OpenAPI document", async () => {
      const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
        paths: Record<string, Record<string, { security?: unknown }>>;
      };
      expect(document.paths['/decide-gateway']?.['post']?.security).toEqual([{ BearerAuth: [] }, { ApiKeyAuth: [] }]);
      expect(document.paths['/auth/me']?.['get']?.security).toEqual([{ BearerAuth: [] }]);
      expect(document.paths['/auth/login']?.['post']?.security).toBeUndefined();
    });
  });
});
