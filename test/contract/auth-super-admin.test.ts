import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/ports/event-envelope.js';
import { createManualClock } from '../../src/time/clock.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { adminSecret, createMerchant, createTestApp, logIn, signUp, withKey, withToken, type TestApp } from '../helpers/test-app.js';

/*
 * The super-admin view (issue 25; decision-engine enter_merchant / exit_merchant /
 * lookup_merchants): a roster from SUPER_ADMIN_EMAILS, entering any merchant keeping one's own
 * identity, switching only within the grant, exit back to a full session, lookup, and the audit.
 */

const post = (t: TestApp, url: string, token: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers: withToken(token), ...(payload === undefined ? {} : { payload }) });

describe('super-admin view', () => {
  let t: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    // Roster compared case-insensitively, blanks ignored.
    t = await createTestApp({ env: { SUPER_ADMIN_EMAILS: ' Root@Platform.example , ,other-root@platform.example' } });
    await createMerchant(t.app, 'platform');
    await createMerchant(t.app, 'shop');
    await createMerchant(t.app, 'lonely-shop');
    await signUp(t.app, 'root@platform.example', 'platform');
    await signUp(t.app, 'owner@shop.example', 'shop');
    adminToken = await logIn(t.app, 'root@platform.example');
  }, 60_000);
  afterAll(async () => t.close());

  it('enters any merchant keeping the admin identity (token_type super_admin_view)', async () => {
    const response = await post(t, '/auth/super-admin/enter-merchant', adminToken, { merchant_id: 'shop' });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { token: string; user_id: string };
    const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers: withToken(body.token) });
    expect(me.json()).toMatchObject({ email: 'root@platform.example', merchant_id: 'shop', role: 'admin', is_super_admin: true, is_super_admin_view: true });
    const own = await t.app.inject({ method: 'GET', url: '/auth/me', headers: withToken(adminToken) });
    expect(own.json()).toMatchObject({ is_super_admin: true, is_super_admin_view: false });
    const owner = await t.app.inject({ method: 'GET', url: '/auth/me', headers: withToken(await logIn(t.app, 'owner@shop.example')) });
    expect(owner.json()).toMatchObject({ is_super_admin: false, is_super_admin_view: false });
    const claims = decodeJwt(body.token);
    expect(claims).toMatchObject({ token_type: 'super_admin_view', email: 'root@platform.example', merchant_id: 'shop', user_id: body.user_id });
    expect(response.json()).toMatchObject({ email: 'root@platform.example', merchant_id: 'shop', role: 'admin', merchants: [] });
  });

  it('answers 403 Insufficient permissions to a non-rostered session', async () => {
    const owner = await logIn(t.app, 'owner@shop.example');
    for (const [url, payload] of [
      ['/auth/super-admin/enter-merchant', { merchant_id: 'platform' }],
      ['/auth/super-admin/lookup', { query: 'platform' }],
    ] as const) {
      const response = await post(t, url, owner, payload);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ code: 'TE_04', message: 'Insufficient permissions', data: null });
    }
  });

  it('answers 404 to an unknown merchant and 422 to a missing one', async () => {
    const unknown = await post(t, '/auth/super-admin/enter-merchant', adminToken, { merchant_id: 'no-such-shop' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'TE_04', message: 'Merchant not found', data: null });
    const missing = await post(t, '/auth/super-admin/enter-merchant', adminToken, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.body).toContain('merchant_id');
  });

  describe('in a view session', () => {
    let viewToken: string;
    beforeAll(async () => {
      viewToken = ((await post(t, '/auth/super-admin/enter-merchant', adminToken, { merchant_id: 'shop' })).json() as { token: string }).token;
    });

    it("reads and writes the merchant's routing, API keys included (the peer allows it)", async () => {
      expect((await t.app.inject({ method: 'GET', url: '/merchant-account/shop', headers: withToken(viewToken) })).statusCode).toBe(200);
      const key = await post(t, '/api-key/create', viewToken, { merchant_id: 'shop' });
      expect(key.statusCode, key.body).toBe(200);
    });

    it('is refused on any other merchant', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/merchant-account/platform', headers: withToken(viewToken) })).statusCode).toBe(403);
    });

    it('switches only within the grant (the merchant entered), staying a view session', async () => {
      // Outside the grant: 403 whether or not the merchant exists.
      for (const merchantId of ['platform', 'no-such-merchant']) {
        const away = await post(t, '/auth/switch-merchant', viewToken, { merchant_id: merchantId });
        expect(away.statusCode, merchantId).toBe(403);
        expect(away.json()).toEqual({ code: 'TE_04', message: 'Insufficient permissions', data: null });
      }
      const same = await post(t, '/auth/switch-merchant', viewToken, { merchant_id: 'shop' });
      expect(same.statusCode, same.body).toBe(200);
      expect(decodeJwt((same.json() as { token: string }).token)).toMatchObject({ token_type: 'super_admin_view', merchant_id: 'shop' });
    });

    it('cannot re-enter, look up or create merchants without exiting first (403 Operation not supported)', async () => {
      for (const [url, payload] of [
        ['/auth/super-admin/enter-merchant', { merchant_id: 'lonely-shop' }],
        ['/auth/super-admin/lookup', { query: 'shop' }],
        ['/onboarding/merchant', { merchant_name: 'Sneaky' }],
      ] as const) {
        const response = await post(t, url, viewToken, payload);
        expect(response.statusCode, url).toBe(403);
        expect(response.json()).toEqual({ code: 'TE_04', message: 'Operation not supported for this session type', data: null });
      }
    });
  });

  it('exits back to the admin own full session and revokes the view session', async () => {
    const viewToken = ((await post(t, '/auth/super-admin/enter-merchant', adminToken, { merchant_id: 'shop' })).json() as { token: string }).token;
    const exited = await post(t, '/auth/super-admin/exit', viewToken);
    expect(exited.statusCode, exited.body).toBe(200);
    const body = exited.json() as { token: string };
    expect(body).toMatchObject({
      email: 'root@platform.example',
      merchant_id: 'platform',
      role: 'admin',
      merchants: [{ merchant_id: 'platform', role: 'admin' }],
    });
    expect(decodeJwt(body.token)['token_type']).toBe('standard');
    expect((await t.app.inject({ method: 'GET', url: '/merchant-account/platform', headers: withToken(body.token) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/auth/me', headers: withToken(viewToken) })).statusCode).toBe(401);
  });

  it('rejects exit from a normal session (403)', async () => {
    const response = await post(t, '/auth/super-admin/exit', adminToken);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ code: 'TE_04', message: 'Operation not supported for this session type', data: null });
  });

  it('looks a merchant up by id or by member email (case-insensitive), with its members', async () => {
    const byId = await post(t, '/auth/super-admin/lookup', adminToken, { query: 'shop' });
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json()).toEqual([{ merchant_id: 'shop', merchant_name: 'shop', members: [{ email: 'owner@shop.example', role: 'admin' }] }]);
    const byEmail = await post(t, '/auth/super-admin/lookup', adminToken, { query: '  OWNER@shop.example ' });
    expect(byEmail.json()).toEqual(byId.json());
    const memberless = await post(t, '/auth/super-admin/lookup', adminToken, { query: 'lonely-shop' });
    expect(memberless.json()).toEqual([{ merchant_id: 'lonely-shop', merchant_name: 'lonely-shop', members: [] }]);
    expect((await post(t, '/auth/super-admin/lookup', adminToken, { query: 'nobody@nowhere.example' })).json()).toEqual([]);
  });

  it('returns no results for an empty or one-character query', async () => {
    for (const query of ['', '   ', 's']) {
      const response = await post(t, '/auth/super-admin/lookup', adminToken, { query });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
    }
  });

  it('audits enter, exit, lookup and every request in view mode on the spine, naming the admin', async () => {
    const viewToken = ((await post(t, '/auth/super-admin/enter-merchant', adminToken, { merchant_id: 'lonely-shop' })).json() as { token: string }).token;
    await t.app.inject({ method: 'GET', url: '/merchant-account/lonely-shop', headers: withToken(viewToken) });
    await post(t, '/onboarding/merchant', viewToken, { merchant_name: 'Sneaky' });
    await post(t, '/auth/super-admin/exit', viewToken);
    await post(t, '/auth/super-admin/lookup', await logIn(t.app, 'owner@shop.example'), { query: 'platform' });
    await t.eventsCaughtUp();
    const audited = t.events.filter(
      (event): event is EventEnvelope<'auth.attempted'> => event.type === 'auth.attempted' && event.payload.credential === 'super_admin',
    );
    expect(
      audited.slice(-5).map((event) => [event.merchantId, event.payload.subject, event.payload.outcome, event.payload.reason, event.payload.action]),
    ).toEqual([
      ['lonely-shop', 'root@platform.example', 'success', null, 'enter_merchant'],
      ['lonely-shop', 'root@platform.example', 'success', null, 'view_request GET /merchant-account/:merchantId 200'],
      ['lonely-shop', 'root@platform.example', 'failure', 'unsupported_session', 'view_request POST /onboarding/merchant 403'],
      ['lonely-shop', 'root@platform.example', 'success', null, 'exit'],
      ['shop', 'owner@shop.example', 'failure', 'not_super_admin', 'lookup'],
    ]);
    expect(audited.every((event) => event.payload.userId !== null)).toBe(true);
  });
});

describe('the audit in /analytics/log-summaries', () => {
  const now = Date.UTC(2026, 0, 20, 9, 0, 0);
  let t: TestApp;
  let analytics: ChdbAnalyticsUnderTest;
  let shopKey: Record<string, string>;

  beforeAll(async () => {
    analytics = await openChdbAnalytics('admin-access-audit');
    const clock = createManualClock(now);
    t = await createTestApp({ clock, analytics: analytics.store, env: { SUPER_ADMIN_EMAILS: 'root@platform.example' } });
    await analytics.startSink(t.bus, clock);
    await createMerchant(t.app, 'platform');
    shopKey = withKey((await createMerchant(t.app, 'shop')).apiKey);
    await signUp(t.app, 'root@platform.example', 'platform');
    const admin = await logIn(t.app, 'root@platform.example');
    const view = ((await post(t, '/auth/super-admin/enter-merchant', admin, { merchant_id: 'shop' })).json() as { token: string }).token;
    await t.app.inject({ method: 'GET', url: '/merchant-account/shop', headers: withToken(view) });
    const minted = await t.app.inject({
      method: 'POST',
      url: '/auth/admin/merchant-token',
      headers: { 'x-admin-secret': adminSecret },
      payload: { merchant_id: 'shop' },
    });
    await t.app.inject({ method: 'POST', url: '/auth/admin/merchant-token/exchange', payload: { code: (minted.json() as { code: string }).code } });
    await t.eventsCaughtUp();
    await analytics.caughtUp();
  }, 60_000);

  afterAll(async () => {
    await analytics?.close(t);
  });

  it("lists the super-admin's entry and view-mode requests and the SSO code in the merchant's log", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/analytics/log-summaries', headers: shopKey });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { errors: { route: string; error_message: string }[]; samples: Record<string, unknown>[] };
    expect(body.errors.map((group) => [group.route, group.error_message]).sort()).toEqual(
      [
        ['/auth/super-admin/enter-merchant', 'Super-admin root@platform.example: enter_merchant'],
        ['/merchant-account/:merchantId', 'Super-admin root@platform.example: view_request GET /merchant-account/:merchantId 200'],
        ['/auth/admin/merchant-token', 'SSO code mint from 127.0.0.1'],
        ['/auth/admin/merchant-token/exchange', 'SSO code exchange from 127.0.0.1'],
      ].sort(),
    );
    expect(body.samples.map((sample) => sample['flow_type'])).toEqual(expect.arrayContaining(['auth_super_admin_success', 'auth_sso_code_success']));
  });
});
