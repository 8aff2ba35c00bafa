import * as crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../../src/time/clock.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { adminSecret, createMerchant, createTestApp, signUp, testPassword, withKey, withToken, type TestApp } from '../helpers/test-app.js';

// A pass-through spy on the one constant-time primitive, to prove the admin secret goes through it.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const securityHeaders = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
};

describe('startup refusal of a weak admin secret', () => {
  const cases: readonly { readonly name: string; readonly env: Record<string, string> }[] = [
    { name: 'the default test_admin with NODE_ENV=production', env: { NODE_ENV: 'production', ADMIN_SECRET: 'test_admin' } },
    { name: 'a 31-character secret with NODE_ENV=production', env: { NODE_ENV: 'production', ADMIN_SECRET: 'x'.repeat(31) } },
    { name: 'the default in distributed mode (REDIS_URL)', env: { REDIS_URL: 'redis://127.0.0.1:9', ADMIN_SECRET: 'test_admin' } },
    { name: 'a short secret in distributed mode (KAFKA_BROKERS)', env: { KAFKA_BROKERS: '127.0.0.1:9', ADMIN_SECRET: 'short-secret' } },
    { name: 'a short secret in distributed mode (CLICKHOUSE_URL)', env: { CLICKHOUSE_URL: 'http://127.0.0.1:9', ADMIN_SECRET: 'short-secret' } },
  ];
  for (const { name, env } of cases) {
    it(`refuses to build the app with ${name}, naming ADMIN_SECRET`, async () => {
      await expect(createTestApp({ env })).rejects.toMatchObject({
        code: 'SY_CONFIG_INVALID',
        message: expect.stringMatching(/^ADMIN_SECRET \(adminSecret\) .*at least 32 characters/),
      });
    });
  }

  it('builds the app with a 32-character secret in production and distributed mode', async () => {
    const t = await createTestApp({ env: { NODE_ENV: 'production', REDIS_URL: 'redis://127.0.0.1:9', ADMIN_SECRET: 'y'.repeat(32) } });
    await t.close();
  });

  it('keeps the default and short secrets working in embedded development', async () => {
    const t = await createTestApp({ env: { ADMIN_SECRET: 'test_admin' } });
    await t.close();
  });
});

describe('security headers', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => t.close());

  it('sends them on a JSON route', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject(securityHeaders);
  });

  it('sends them on a 401, a 400, a 404 and a 415', async () => {
    const { apiKey } = await createMerchant(t.app, 'shop');
    const answers = [
      await t.app.inject({ method: 'GET', url: '/merchant-account/shop' }),
      await t.app.inject({ method: 'GET', url: '/analytics/overview?range=7y', headers: withKey(apiKey) }),
      await t.app.inject({ method: 'GET', url: '/no/such/route' }),
      await t.app.inject({ method: 'POST', url: '/auth/login', headers: { 'content-type': 'text/plain' }, payload: 'x' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([401, 400, 404, 415]);
    for (const answer of answers) expect(answer.headers).toMatchObject(securityHeaders);
  });

  it('marks every response that carries a token or a raw API key no-store', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/merchant-account/create',
      headers: { 'x-admin-secret': adminSecret },
      payload: { merchant_id: 'shop' },
    });
    const signup = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      headers: { 'x-admin-secret': adminSecret },
      payload: { email: 'ops@example.com', password: testPassword, merchant_id: 'shop' },
    });
    const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'ops@example.com', password: testPassword } });
    const token = (login.json() as { token: string }).token;
    const switched = await t.app.inject({ method: 'POST', url: '/auth/switch-merchant', headers: withToken(token), payload: { merchant_id: 'shop' } });
    const key = await t.app.inject({ method: 'POST', url: '/api-key/create', headers: withToken(token), payload: { merchant_id: 'shop', description: 'ci' } });
    for (const response of [created, signup, login, switched, key]) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('gives the Swagger UI page a policy that lets its own scripts and styles load', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends no CORS header and answers no preflight when no origin is configured', async () => {
    const simple = await t.app.inject({ method: 'GET', url: '/health', headers: { origin: 'https://app.example' } });
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/decide-gateway',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(404);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS with CORS_ORIGINS set', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ env: { CORS_ORIGINS: 'https://app.example, http://localhost:5173' } });
  });
  afterEach(async () => t.close());

  it('allows a configured origin on simple requests and says so per origin', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health', headers: { origin: 'http://localhost:5173' } });
    expect(response.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(response.headers['vary']).toContain('Origin');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(response.headers['access-control-expose-headers'])).toContain('x-request-id');
  });

  it('answers a preflight for a configured origin before authentication', async () => {
    const response = await t.app.inject({
      method: 'OPTIONS',
      url: '/decide-gateway',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-api-key' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(String(response.headers['access-control-allow-headers'])).toBe('authorization, content-type, x-api-key, x-request-id');
    expect(String(response.headers['access-control-allow-methods'])).toContain('POST');
    expect(response.headers['access-control-max-age']).toBe('600');
  });

  it('does not allow an origin that is not configured', async () => {
    const simple = await t.app.inject({ method: 'GET', url: '/health', headers: { origin: 'https://evil.example' } });
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/decide-gateway',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('admin secret throttling', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterEach(async () => t.close());

  const create = (merchantId: string, secret: string, from = '203.0.113.7') =>
    t.app.inject({
      method: 'POST',
      url: '/merchant-account/create',
      remoteAddress: '127.0.0.1',
      headers: { 'x-admin-secret': secret, 'x-forwarded-for': from },
      payload: { merchant_id: merchantId },
    });

  it('answers 429 with Retry-After from the 6th attempt after 5 failures, even with the right secret', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await create('shop', `wrong-${attempt}`)).statusCode).toBe(401);
    const throttled = await create('shop', adminSecret);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers['retry-after']).toBe('1');
    expect(throttled.json()).toEqual({ code: 'TE_04', message: 'Too many failed admin secret attempts; try again later', data: null });
    expect(throttled.headers['cache-control']).toBe('no-store');

    // Another client address (behind the trusted proxy) is not slowed down by this one's failures.
    expect((await create('shop', adminSecret, '198.51.100.4')).statusCode).toBe(200);

    // The lock lifts after the delay; the next failure doubles it.
    t.clock.advance(1_000);
    expect((await create('shop-2', 'wrong-again')).statusCode).toBe(401);
    const longer = await create('shop-2', adminSecret);
    expect(longer.statusCode).toBe(429);
    expect(longer.headers['retry-after']).toBe('2');
  });

  it('ignores X-Forwarded-For from a peer TRUST_PROXY does not name, so a client cannot pick its address', async () => {
    const direct = await createTestApp();
    try {
      const attempt = (forwardedFor: string, secret: string) =>
        direct.app.inject({
          method: 'POST',
          url: '/merchant-account/create',
          remoteAddress: '203.0.113.50',
          headers: { 'x-admin-secret': secret, 'x-forwarded-for': forwardedFor },
          payload: { merchant_id: 'shop' },
        });
      for (let index = 0; index < 5; index += 1) expect((await attempt(`198.51.100.${index}`, 'wrong')).statusCode).toBe(401);
      expect((await attempt('198.51.100.99', adminSecret)).statusCode).toBe(429);
    } finally {
      await direct.close();
    }
  });

  it('throttles signup into an existing merchant on the same counter', async () => {
    await createMerchant(t.app, 'shop');
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await create('other', `wrong-${attempt}`)).statusCode).toBe(401);
    const signup = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      remoteAddress: '127.0.0.1',
      headers: { 'x-admin-secret': adminSecret, 'x-forwarded-for': '203.0.113.7' },
      payload: { email: 'ops@example.com', password: testPassword, merchant_id: 'shop' },
    });
    expect(signup.statusCode).toBe(429);
    expect(Number(signup.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('compares the secret with timingSafeEqual, whatever its length or common prefix', async () => {
    const timingSafeEqual = vi.mocked(crypto.timingSafeEqual);
    for (const secret of ['x', adminSecret.slice(0, -1), `${adminSecret}x`, adminSecret]) {
      timingSafeEqual.mockClear();
      const response = await create(`shop-${secret.length}`, secret, `192.0.2.${secret.length}`);
      expect(response.statusCode).toBe(secret === adminSecret ? 200 : 401);
      expect(timingSafeEqual).toHaveBeenCalledTimes(1);
      const [left, right] = timingSafeEqual.mock.calls[0]!;
      // Digests of equal length: the comparison never depends on the secret's length.
      expect([(left as Buffer).length, (right as Buffer).length]).toEqual([32, 32]);
    }
  });
});

describe('authentication audit events', () => {
  const now = Date.UTC(2026, 0, 15, 12, 0, 0);
  let t: TestApp;
  let analytics: ChdbAnalyticsUnderTest;
  let key: Record<string, string>;
  const wrongPassword = 'not-the-password-7781';

  beforeAll(async () => {
    analytics = await openChdbAnalytics('auth-audit');
    const clock = createManualClock(now);
    t = await createTestApp({ clock, analytics: analytics.store });
    await analytics.startSink(t.bus, clock);
    key = withKey((await createMerchant(t.app, 'audited-shop')).apiKey);
    await createMerchant(t.app, 'other-shop');
    await signUp(t.app, 'ops@audited.example', 'audited-shop');
    const login = (email: string, password: string) =>
      t.app.inject({ method: 'POST', url: '/auth/login', remoteAddress: '10.1.2.3', headers: { 'user-agent': 'audit-test' }, payload: { email, password } });
    expect((await login('ops@audited.example', wrongPassword)).statusCode).toBe(401);
    expect((await login('ops@audited.example', wrongPassword)).statusCode).toBe(401);
    expect((await login('nobody@audited.example', wrongPassword)).statusCode).toBe(401);
    expect((await login('ops@audited.example', testPassword)).statusCode).toBe(200);
    // A refused admin secret aimed at the merchant, and a refused (unknown) API key.
    const takeover = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      headers: { 'x-admin-secret': 'guess' },
      payload: { email: 'eve@evil.example', password: testPassword, merchant_id: 'audited-shop' },
    });
    expect(takeover.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/merchant-account/audited-shop', headers: withKey(`DE_${'ab'.repeat(32)}`) })).statusCode).toBe(401);
    await t.eventsCaughtUp();
    await analytics.caughtUp();
  }, 60_000);

  afterAll(async () => {
    await analytics?.close(t);
  });

  it('publishes auth.attempted events without any secret', () => {
    const attempts = t.events.filter((event) => event.type === 'auth.attempted');
    expect(attempts.map((event) => [event.merchantId, event.payload.credential, event.payload.outcome, event.payload.reason])).toEqual([
      ['audited-shop', 'password', 'failure', 'invalid_credentials'],
      ['audited-shop', 'password', 'failure', 'invalid_credentials'],
      ['_unattributed', 'password', 'failure', 'invalid_credentials'],
      ['audited-shop', 'password', 'success', null],
      ['audited-shop', 'admin_secret', 'failure', 'invalid_admin_secret'],
      ['_unattributed', 'api_key', 'failure', 'invalid_api_key'],
    ]);
    expect(attempts[0]!.payload).toMatchObject({ subject: 'ops@audited.example', sourceAddress: '10.1.2.3', route: '/auth/login', userAgent: 'audit-test' });
    expect(attempts[5]!.payload.subject).toBe('DE_abababab');
    const serialized = JSON.stringify(attempts);
    for (const secret of [wrongPassword, testPassword, 'guess', 'ab'.repeat(32)]) expect(serialized).not.toContain(secret);
  });

  it("shows the merchant's refused logins and admin secrets in /analytics/log-summaries", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/analytics/log-summaries', headers: key });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { total_errors: number; errors: Record<string, unknown>[]; samples: Record<string, unknown>[] };
    expect(body.total_errors).toBe(3);
    expect(body.errors).toEqual([
      {
        route: '/auth/login',
        error_code: 'invalid_credentials',
        error_message: 'Login refused for ops@audited.example from 10.1.2.3: invalid_credentials',
        count: 2,
        last_seen_ms: now,
      },
      {
        route: '/auth/signup',
        error_code: 'invalid_admin_secret',
        error_message: 'Admin secret refused from 127.0.0.1: invalid_admin_secret',
        count: 1,
        last_seen_ms: now,
      },
    ]);
    expect(body.samples.map((sample) => sample['flow_type'])).toEqual(expect.arrayContaining(['auth_password_failure', 'auth_admin_secret_failure']));
    expect(response.body).not.toContain(wrongPassword);
    expect(response.body).not.toContain('nobody@audited.example');
  });
});
