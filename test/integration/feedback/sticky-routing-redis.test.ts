import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisKeys } from '../../../src/adapters/redis/redis-keys.js';
import { createRedisStateStore } from '../../../src/adapters/redis/redis-state-store.js';
import { customerKeyOf } from '../../../src/decision/sticky/sticky-key.js';
import { defaultStickySettings } from '../../../src/decision/sticky/sticky-settings.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { StateStore } from '../../../src/ports/state-store.js';
import { startStallingProxy, type StallingProxy } from '../../helpers/stalling-tcp-proxy.js';
import { createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../../helpers/test-app.js';
import { deleteRedisNamespace, redisAdminForFile, redisUrl, uniqueNamespace } from '../adapters/local-services.js';

/*
 * Sticky routing distributed: two API replicas and their sr-windows workers on one real Redis. The
 * second replica reaches the sticky counts through a TCP proxy the test can stall, so a slow store is
 * a real Redis behind a path that stopped moving (no sleeps, no fake store): the decision must
 * answer within the lookup deadline with the plain SR decision and count the timeout.
 */
const admin = redisAdminForFile();

describe('sticky routing on Redis', () => {
  const keyPrefix = `${uniqueNamespace('sticky-routing')}:`;
  const keys = createRedisKeys(keyPrefix);
  const merchantId = 'sticky-redis';
  let direct: StateStore;
  let viaProxy: StateStore;
  let proxy: StallingProxy;
  let first: TestApp;
  let second: TestApp;
  let headers: Record<string, string>;
  let payments = 0;

  beforeAll(async () => {
    const target = new URL(redisUrl);
    proxy = await startStallingProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const proxied = new URL(redisUrl);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    direct = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
    viaProxy = await createRedisStateStore({ url: proxied.toString(), keyPrefix, logger: silentLogger });
    first = await createTestApp({ state: direct });
    // Everything of the second replica goes straight to Redis except the sticky counts.
    second = await createTestApp({ state: { ...direct, sticky: viaProxy.sticky }, stickySettings: { ...defaultStickySettings, lookupTimeoutMs: 100 } });
    headers = withKey((await createMerchant(first.app, merchantId)).apiKey);
    const rule = await first.app.inject({
      method: 'POST',
      url: '/rule/create',
      headers,
      payload: { merchant_id: merchantId, config: { type: 'successRate', data: { defaultBucketSize: 10, defaultHedgingPercent: 0 } } },
    });
    expect(rule.statusCode).toBe(200);
    const feature = await first.app.inject({
      method: 'POST',
      url: `/merchant-account/${merchantId}/features/sticky-routing`,
      headers,
      payload: { enabled: true },
    });
    expect(feature.statusCode).toBe(200);
  }, 120_000);

  afterAll(async () => {
    proxy?.resume();
    await first?.close();
    await second?.close();
    await viaProxy?.close();
    await direct?.close();
    await proxy?.close();
    await deleteRedisNamespace(admin(), keyPrefix);
  });

  const decide = async (app: TestApp, customerId: string) => {
    payments += 1;
    const paymentId = `pay-${payments}`;
    const body = decideBody(merchantId, paymentId);
    body['paymentInfo'] = { ...(body['paymentInfo'] as Record<string, unknown>), customerId };
    const response = await app.app.inject({ method: 'POST', url: '/decide-gateway', headers, payload: body });
    expect(response.statusCode).toBe(200);
    return { paymentId, body: response.json() };
  };

  it("keeps a customer's net counts in one hashed Redis key and pins it on every replica", async () => {
    const { paymentId } = await decide(first, 'cust-redis');
    const feedback = await first.app.inject({
      method: 'POST',
      url: '/update-gateway-score',
      headers,
      payload: { merchantId, gateway: 'adyen', paymentId, status: 'CHARGED' },
    });
    expect(feedback.statusCode).toBe(200);
    await first.worker.caughtUp();

    const countsKey = keys.stickyCounts(merchantId, customerKeyOf('cust-redis'));
    expect(await admin().hgetall(countsKey)).toEqual({ 'CREDIT:CARD:adyen': '1' });
    const ttl = await admin().ttl(countsKey);
    expect(ttl).toBeGreaterThan(89 * 24 * 3600);
    const stored: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await admin().scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 500);
      cursor = next;
      stored.push(...batch);
    } while (cursor !== '0');
    expect(stored.join('\n')).not.toContain('cust-redis');

    expect((await decide(first, 'cust-redis')).body).toMatchObject({ decided_gateway: 'adyen', routing_approach: 'STICKY_ROUTING' });
    expect((await decide(second, 'cust-redis')).body).toMatchObject({ decided_gateway: 'adyen', routing_approach: 'STICKY_ROUTING' });
  });

  it('answers the plain SR decision within the deadline while the store does not answer, and pins again once it does', async () => {
    const timeoutsBefore = second.stickyCounters.decisions().get('store_timeout') ?? 0;
    proxy.stall();
    const slow = await decide(second, 'cust-redis');
    // Answered while the lookup was still held on the stalled path.
    expect(proxy.heldBytes()).toBeGreaterThan(0);
    expect(slow.body).toMatchObject({ decided_gateway: 'stripe', fallback_gateways: ['adyen'], routing_approach: 'SR_SELECTION_V3_ROUTING' });
    expect(second.stickyCounters.decisions().get('store_timeout')).toBe(timeoutsBefore + 1);
    await second.eventsCaughtUp();
    const created = second.events.find((e) => e.type === 'decision.created' && (e.payload as { paymentId: string }).paymentId === slow.paymentId);
    expect(created?.payload).toMatchObject({ gateway: 'stripe', sticky: { outcome: 'store_timeout', srHead: null } });

    proxy.resume();
    expect((await decide(second, 'cust-redis')).body).toMatchObject({ decided_gateway: 'adyen', routing_approach: 'STICKY_ROUTING' });
  });
});
