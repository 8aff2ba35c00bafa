import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteTableEntry } from '../../api/plugins/authentication.js';
import { adminSecret, createMerchant, createTestApp, logIn, signUp, testPassword, withToken, type TestApp } from '../helpers/test-app.js';

/*
 * Session kinds on the account and team routes (issue 25), beside the guard matrix's generic
 * "session kinds" rows (which refuse both limited kinds on every route declaring `sessionKinds`).
 * decision-engine 1.4.x: change-password and invite_member refuse any session but a full standard
 * one ("only a full standard session may manage identity"); list_members and the API key routes
 * check no session kind, so an SSO handoff and a super-admin view keep them. Our DELETE
 * /merchant/members/{user_id} (not in the peer) follows invite.
 */

const standardOnly = ['POST /auth/change-password', 'POST /merchant/members/invite', 'DELETE /merchant/members/:user_id'];
const everyKind = ['GET /merchant/members', 'POST /api-key/create', 'GET /api-key/list/:merchant_id', 'DELETE /api-key/:key_id'];
const unsupported = { code: 'TE_04', message: 'Operation not supported for this session type', data: null };

describe('account and team routes by session kind', () => {
  let t: TestApp;
  let routes: RouteTableEntry[];
  let tokens: Record<'hs_redirect' | 'super_admin_view', string>;
  let leadToken: string;
  let memberId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUPER_ADMIN_EMAILS: 'root@platform.example' } });
    await createMerchant(t.app, 'home');
    await createMerchant(t.app, 'shop');
    await signUp(t.app, 'root@platform.example', 'home');
    leadToken = (await signUp(t.app, 'lead@shop.example', 'shop')).token;
    const invited = await t.app.inject({
      method: 'POST',
      url: '/merchant/members/invite',
      headers: withToken(leadToken),
      payload: { email: 'clerk@shop.example' },
    });
    expect(invited.statusCode, invited.body).toBe(200);
    memberId = (await t.state.users.findByEmail('clerk@shop.example'))?.userId ?? '';
    await t.app.ready();
    routes = [...t.app.routeTable];

    const minted = await t.app.inject({
      method: 'POST',
      url: '/auth/admin/merchant-token',
      headers: { 'x-admin-secret': adminSecret },
      payload: { merchant_id: 'shop' },
    });
    const exchanged = await t.app.inject({
      method: 'POST',
      url: '/auth/admin/merchant-token/exchange',
      payload: { code: (minted.json() as { code: string }).code },
    });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const entered = await t.app.inject({
      method: 'POST',
      url: '/auth/super-admin/enter-merchant',
      headers: withToken(await logIn(t.app, 'root@platform.example')),
      payload: { merchant_id: 'shop' },
    });
    expect(entered.statusCode, entered.body).toBe(200);
    tokens = { hs_redirect: (exchanged.json() as { token: string }).token, super_admin_view: (entered.json() as { token: string }).token };
  }, 60_000);

  afterAll(async () => t?.close());

  const kindsOf = (key: string) => routes.find((route) => `${route.method} ${route.url}` === key);

  it('declares the identity routes standard-only and leaves the team list and API keys to every kind', () => {
    for (const key of standardOnly) expect(kindsOf(key)?.sessionKinds, key).toEqual(['standard']);
    for (const key of everyKind) {
      expect(kindsOf(key), key).toBeDefined();
      expect(kindsOf(key)?.sessionKinds, key).toBeUndefined();
    }
  });

  for (const kind of ['hs_redirect', 'super_admin_view'] as const) {
    it(`refuses a ${kind} session a password change, and the password stays`, async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/change-password',
        headers: withToken(tokens[kind]),
        payload: { current_password: testPassword, new_password: 'a brand new passphrase 42' },
      });
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toEqual(unsupported);
      expect(await logIn(t.app, kind === 'super_admin_view' ? 'root@platform.example' : 'lead@shop.example')).toMatch(/\S/);
    });

    it(`refuses a ${kind} session an invite and a removal, and the team is unchanged`, async () => {
      const invite = await t.app.inject({
        method: 'POST',
        url: '/merchant/members/invite',
        headers: withToken(tokens[kind]),
        payload: { email: `by-${kind}@shop.example` },
      });
      expect(invite.statusCode, invite.body).toBe(403);
      expect(invite.json()).toEqual(unsupported);
      const remove = await t.app.inject({ method: 'DELETE', url: `/merchant/members/${memberId}`, headers: withToken(tokens[kind]) });
      expect(remove.statusCode, remove.body).toBe(403);
      expect(remove.json()).toEqual(unsupported);
      const list = await t.app.inject({ method: 'GET', url: '/merchant/members', headers: withToken(leadToken) });
      expect((list.json() as { email: string }[]).map((member) => member.email).sort()).toEqual(['clerk@shop.example', 'lead@shop.example']);
    });

    it(`lets a ${kind} session list the team and mint, list and revoke an API key of its merchant`, async () => {
      const headers = withToken(tokens[kind]);
      const list = await t.app.inject({ method: 'GET', url: '/merchant/members', headers });
      expect(list.statusCode, list.body).toBe(200);
      expect((list.json() as { email: string }[]).map((member) => member.email).sort()).toEqual(['clerk@shop.example', 'lead@shop.example']);
      const created = await t.app.inject({ method: 'POST', url: '/api-key/create', headers, payload: { merchant_id: 'shop', description: kind } });
      expect(created.statusCode, created.body).toBe(200);
      const keyId = (created.json() as { key_id: string }).key_id;
      const keys = await t.app.inject({ method: 'GET', url: '/api-key/list/shop', headers });
      expect((keys.json() as { key_id: string }[]).map((key) => key.key_id)).toContain(keyId);
      expect((await t.app.inject({ method: 'DELETE', url: `/api-key/${keyId}`, headers })).statusCode).toBe(200);
    });
  }

  it('lets the standard admin session of the merchant invite and remove', async () => {
    const invite = await t.app.inject({
      method: 'POST',
      url: '/merchant/members/invite',
      headers: withToken(leadToken),
      payload: { email: 'temp@shop.example' },
    });
    expect(invite.statusCode, invite.body).toBe(200);
    const tempId = (await t.state.users.findByEmail('temp@shop.example'))?.userId ?? '';
    const remove = await t.app.inject({ method: 'DELETE', url: `/merchant/members/${tempId}`, headers: withToken(leadToken) });
    expect(remove.statusCode, remove.body).toBe(200);
  });
});
