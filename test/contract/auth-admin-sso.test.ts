import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/ports/event-envelope.js';
import { adminSecret, createMerchant, createTestApp, signUp, withToken, type TestApp } from '../helpers/test-app.js';

/*
 * Admin SSO handoff codes (issue 25; decision-engine docs/hs-merchant-sso.md): minting behind the
 * admin secret (refused and throttled without it), one-time exchange for an hs_redirect session
 * limited to the merchant, expiry, hashed storage, and what such a session may do.
 */

const mint = (t: TestApp, merchantId: string, secret: string | null = adminSecret, remoteAddress = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/auth/admin/merchant-token',
    remoteAddress,
    headers: secret === null ? {} : { 'x-admin-secret': secret },
    payload: { merchant_id: merchantId },
  });

const exchange = (t: TestApp, code: unknown) => t.app.inject({ method: 'POST', url: '/auth/admin/merchant-token/exchange', payload: { code } });

async function mintedCode(t: TestApp, merchantId: string): Promise<string> {
  const response = await mint(t, merchantId);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { code: string }).code;
}

describe('POST /auth/admin/merchant-token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await createMerchant(t.app, 'sso-shop');
  });
  afterAll(async () => t.close());

  it('mints an opaque code with the peer TTL (60 s), no session token', async () => {
    const response = await mint(t, 'sso-shop');
    expect(response.statusCode).toBe(200);
    const body = response.json() as { code: string; expires_in: number };
    expect(Object.keys(body).sort()).toEqual(['code', 'expires_in']);
    expect(body.expires_in).toBe(60);
    // Made like an API key, as decision-engine makes it.
    expect(body.code).toMatch(/^DE_[0-9a-f]{64}$/);
    expect(await mintedCode(t, 'sso-shop')).not.toBe(body.code);
  });

  it('answers 404 Merchant not found for an unknown merchant', async () => {
    const response = await mint(t, 'no-such-shop');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 'TE_04', message: 'Merchant not found', data: null });
  });

  it('refuses a missing or wrong admin secret with 401', async () => {
    for (const secret of [null, 'wrong-secret']) {
      const response = await mint(t, 'sso-shop', secret, '198.51.100.7');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ code: 'TE_04', message: 'Invalid admin secret', data: null });
    }
  });

  it('throttles an address after repeated refusals, even with the right secret then', async () => {
    const address = '198.51.100.99';
    for (let i = 0; i < 5; i += 1) expect((await mint(t, 'sso-shop', 'guess', address)).statusCode).toBe(401);
    const throttled = await mint(t, 'sso-shop', adminSecret, address);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers['retry-after']).toBeDefined();
    // Another address is not affected.
    expect((await mint(t, 'sso-shop', adminSecret, '198.51.100.100')).statusCode).toBe(200);
  });

  it('answers 422 (not 500) to a body without merchant_id', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/auth/admin/merchant-token', headers: { 'x-admin-secret': adminSecret }, payload: {} });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain('merchant_id');
  });

  it('stores only the hash of the code', async () => {
    const code = await mintedCode(t, 'sso-shop');
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256').update(code).digest('hex');
    // The raw code is no key: consuming it as if it were a hash finds nothing; its hash finds the grant.
    expect(await t.state.sessions.consumeOneTimeCode('sso', code)).toBeUndefined();
    expect(await t.state.sessions.consumeOneTimeCode('sso', hash)).toBe(JSON.stringify({ merchantId: 'sso-shop' }));
  });
});

describe('POST /auth/admin/merchant-token/exchange', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await createMerchant(t.app, 'sso-shop');
    await createMerchant(t.app, 'other-shop');
    await signUp(t.app, 'owner@other.example', 'other-shop');
  });
  afterAll(async () => t.close());

  it('exchanges a code for a 20-minute hs_redirect session of the merchant (peer AuthResponse shape)', async () => {
    const response = await exchange(t, await mintedCode(t, 'sso-shop'));
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as Record<string, unknown>;
    expect(body).toMatchObject({
      user_id: 'hs_sso-shop',
      email: '',
      merchant_id: 'sso-shop',
      role: 'admin',
      merchants: [{ merchant_id: 'sso-shop', merchant_name: 'sso-shop', role: 'admin' }],
    });
    const claims = decodeJwt(body['token'] as string);
    expect(claims['token_type']).toBe('hs_redirect');
    expect(claims.exp! - claims.iat!).toBe(1200);
  });

  it('redeems a code once: the second exchange is 401', async () => {
    const code = await mintedCode(t, 'sso-shop');
    expect((await exchange(t, code)).statusCode).toBe(200);
    const again = await exchange(t, code);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ code: 'TE_04', message: 'Invalid or expired token', data: null });
  });

  it('gives one session to two concurrent exchanges of one code', async () => {
    const code = await mintedCode(t, 'sso-shop');
    const answers = await Promise.all([exchange(t, code), exchange(t, code), exchange(t, code)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401, 401]);
  });

  it('rejects unknown codes with 401 and an empty or missing code with 422', async () => {
    expect((await exchange(t, `DE_${'0'.repeat(64)}`)).statusCode).toBe(401);
    const empty = await exchange(t, '');
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain('code');
    expect((await t.app.inject({ method: 'POST', url: '/auth/admin/merchant-token/exchange', payload: {} })).statusCode).toBe(422);
  });

  it('rejects an expired code (after the 60 s TTL)', async () => {
    const code = await mintedCode(t, 'sso-shop');
    t.clock.advance(61_000);
    expect((await exchange(t, code)).statusCode).toBe(401);
  });

  describe('the hs_redirect session', () => {
    let token: string;
    beforeAll(async () => {
      token = ((await exchange(t, await mintedCode(t, 'sso-shop'))).json() as { token: string }).token;
    });

    it('answers GET /auth/me and /auth/merchants from its claims (no user row)', async () => {
      const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers: withToken(token) });
      expect(me.statusCode, me.body).toBe(200);
      // Never a super-admin, whatever the roster says (decision-engine roster_admits).
      expect(me.json()).toMatchObject({
        user_id: 'hs_sso-shop',
        email: '',
        merchant_id: 'sso-shop',
        role: 'admin',
        is_super_admin: false,
        is_super_admin_view: false,
      });
      const merchants = await t.app.inject({ method: 'GET', url: '/auth/merchants', headers: withToken(token) });
      expect(merchants.json()).toEqual([{ merchant_id: 'sso-shop', merchant_name: 'sso-shop', role: 'admin' }]);
    });

    it("reads and writes its merchant's routing (API keys included, as the peer allows)", async () => {
      expect((await t.app.inject({ method: 'GET', url: '/merchant-account/sso-shop', headers: withToken(token) })).statusCode).toBe(200);
      const key = await t.app.inject({ method: 'POST', url: '/api-key/create', headers: withToken(token), payload: { merchant_id: 'sso-shop' } });
      expect(key.statusCode, key.body).toBe(200);
    });

    it('is refused on another merchant (403)', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/merchant-account/other-shop', headers: withToken(token) });
      expect(response.statusCode).toBe(403);
    });

    it('cannot create merchants (403 Operation not supported for this session type)', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/onboarding/merchant', headers: withToken(token), payload: { merchant_name: 'Phantom' } });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ code: 'TE_04', message: 'Operation not supported for this session type', data: null });
    });

    it('switches only within its grant, keeping its kind and life', async () => {
      // Outside the grant: 403 whether or not the merchant exists, so the answer says nothing about other ids.
      for (const merchantId of ['other-shop', 'no-such-shop']) {
        const away = await t.app.inject({ method: 'POST', url: '/auth/switch-merchant', headers: withToken(token), payload: { merchant_id: merchantId } });
        expect(away.statusCode, merchantId).toBe(403);
        expect(away.json()).toEqual({ code: 'TE_04', message: 'Insufficient permissions', data: null });
      }
      const same = await t.app.inject({ method: 'POST', url: '/auth/switch-merchant', headers: withToken(token), payload: { merchant_id: 'sso-shop' } });
      expect(same.statusCode, same.body).toBe(200);
      const claims = decodeJwt((same.json() as { token: string }).token);
      expect(claims['token_type']).toBe('hs_redirect');
      expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(1200);
    });

    it('cannot enter the super-admin view or look merchants up', async () => {
      for (const url of ['/auth/super-admin/enter-merchant', '/auth/super-admin/lookup']) {
        const response = await t.app.inject({ method: 'POST', url, headers: withToken(token), payload: { merchant_id: 'other-shop', query: 'other-shop' } });
        expect(response.statusCode).toBe(403);
      }
    });

    it('expires after 20 minutes', async () => {
      t.clock.advance(1201_000);
      expect((await t.app.inject({ method: 'GET', url: '/auth/me', headers: withToken(token) })).statusCode).toBe(401);
    });
  });

  it('publishes mint and exchange (success and refusal) as auth.attempted events without the code', async () => {
    const code = await mintedCode(t, 'sso-shop');
    await exchange(t, code);
    await exchange(t, code);
    await t.eventsCaughtUp();
    const sso = t.events.filter(
      (event): event is EventEnvelope<'auth.attempted'> => event.type === 'auth.attempted' && event.payload.credential === 'sso_code',
    );
    const last = sso.slice(-3).map((event) => [event.merchantId, event.payload.outcome, event.payload.reason, event.payload.action]);
    expect(last).toEqual([
      ['sso-shop', 'success', null, 'mint'],
      ['sso-shop', 'success', null, 'exchange'],
      ['_unattributed', 'failure', 'invalid_code', 'exchange'],
    ]);
    expect(JSON.stringify(t.events)).not.toContain(code);
  });
});
