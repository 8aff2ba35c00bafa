import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStateStore } from '../../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { StateStore } from '../../../src/ports/state-store.js';
import { createManualClock } from '../../../src/time/clock.js';
import { adminSecret, createMerchant, createTestApp, logIn, signUp, withToken, type TestApp } from '../../helpers/test-app.js';
import { redisUrl, uniqueNamespace } from '../adapters/local-services.js';

/*
 * Admin SSO codes and the super-admin view in distributed mode: two API replicas over one real
 * Redis (each its own connections), sharing a clock. A code minted on one is redeemed once, on
 * either; a view session entered on one exits on the other, and its token is then refused on both.
 */

const keyPrefix = `${uniqueNamespace('admin-access')}:`;
let admin: Redis;
let stores: StateStore[];
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  admin = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  await admin.connect();
  stores = await Promise.all([0, 1].map(async () => createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger })));
  const clock = createManualClock(Date.now());
  const env = { SUPER_ADMIN_EMAILS: 'root@platform.example' };
  a = await createTestApp({ state: stores[0]!, clock, env });
  b = await createTestApp({ state: stores[1]!, clock, env });
  await createMerchant(a.app, 'platform');
  await createMerchant(a.app, 'shop');
  await signUp(a.app, 'root@platform.example', 'platform');
}, 60_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await Promise.all((stores ?? []).map((store) => store.close()));
  let cursor = '0';
  do {
    const [next, found] = await admin.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 500);
    cursor = next;
    if (found.length > 0) await admin.del(...found);
  } while (cursor !== '0');
  await admin?.quit();
});

describe('admin access across two replicas on Redis', () => {
  it('redeems a code minted on one replica once, whichever replica is asked', async () => {
    const minted = await a.app.inject({
      method: 'POST',
      url: '/auth/admin/merchant-token',
      headers: { 'x-admin-secret': adminSecret },
      payload: { merchant_id: 'shop' },
    });
    expect(minted.statusCode, minted.body).toBe(200);
    const code = (minted.json() as { code: string }).code;
    const exchange = (t: TestApp) => t.app.inject({ method: 'POST', url: '/auth/admin/merchant-token/exchange', payload: { code } });
    const answers = await Promise.all([exchange(a), exchange(b), exchange(b)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401, 401]);
    const token = (answers.find((answer) => answer.statusCode === 200)!.json() as { token: string }).token;
    expect((await a.app.inject({ method: 'GET', url: '/auth/me', headers: withToken(token) })).statusCode).toBe(200);
    expect((await exchange(a)).statusCode).toBe(401);
  });

  it('exits on one replica a view entered on the other; the view token is then refused on both', async () => {
    const adminToken = await logIn(a.app, 'root@platform.example');
    const entered = await a.app.inject({
      method: 'POST',
      url: '/auth/super-admin/enter-merchant',
      headers: withToken(adminToken),
      payload: { merchant_id: 'shop' },
    });
    expect(entered.statusCode, entered.body).toBe(200);
    const view = (entered.json() as { token: string }).token;
    const exited = await b.app.inject({ method: 'POST', url: '/auth/super-admin/exit', headers: withToken(view) });
    expect(exited.statusCode, exited.body).toBe(200);
    expect(exited.json()).toMatchObject({ email: 'root@platform.example', merchant_id: 'platform' });
    for (const replica of [a, b]) {
      expect((await replica.app.inject({ method: 'GET', url: '/merchant-account/shop', headers: withToken(view) })).statusCode).toBe(401);
    }
  });
});
