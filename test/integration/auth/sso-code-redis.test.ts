import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCachedStateStore } from '../../../src/adapters/cache/cached-state-store.js';
import { createRedisStateStore } from '../../../src/adapters/redis/redis-state-store.js';
import { AdminSso } from '../../../src/auth/sso/admin-sso.js';
import { createTokenService } from '../../../src/auth/token-service.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { StateStore } from '../../../src/ports/state-store.js';
import { systemClock } from '../../../src/time/clock.js';
import { redisUrl, uniqueNamespace } from '../adapters/local-services.js';

/*
 * Admin SSO codes on real Redis, across two replicas (each its own connections, behind the cache
 * as the runtime composes it): a code minted on one is redeemed once, on either, even when both
 * race (GETDEL); it is stored only as its SHA-256 with a TTL, and expires.
 */

let admin: Redis;
const keyPrefix = `${uniqueNamespace('sso-code')}:`;
let a: StateStore;
let b: StateStore;

beforeAll(async () => {
  admin = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  await admin.connect();
  const open = async () =>
    createCachedStateStore(await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger }), { logger: silentLogger, clock: systemClock });
  [a, b] = await Promise.all([open(), open()]);
  await a.merchants.create({ merchantId: 'sso-shop', merchantName: 'SSO Shop', deciderInput: null, createdAt: Date.now() });
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  let cursor = '0';
  do {
    const [next, found] = await admin.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 500);
    cursor = next;
    if (found.length > 0) await admin.del(...found);
  } while (cursor !== '0');
  await admin?.quit();
});

const tokenConfig = {
  issuer: 'switchyard',
  audience: 'switchyard-dashboard',
  ttlSeconds: 86_400,
  algorithms: ['HS256'] as const,
  secret: 'sso-redis-test-secret-0123456789abcdef-0123456789',
};

function ssoOn(store: StateStore, codeTtlSeconds = 60): AdminSso {
  const tokens = createTokenService({ ...tokenConfig, algorithms: [...tokenConfig.algorithms] }, { sessions: store.sessions, clock: systemClock });
  return new AdminSso({ codeTtlSeconds, sessionTtlSeconds: 1200 }, { sessions: store.sessions, merchants: store.merchants, tokens });
}

describe('admin SSO codes on Redis', () => {
  it('stores the SHA-256 of the code with the TTL, never the code', async () => {
    const minted = await ssoOn(a).mint('sso-shop');
    if (minted.kind !== 'ok') throw new Error('mint failed');
    const hash = createHash('sha256').update(minted.code).digest('hex');
    const key = `${keyPrefix}one_time:sso:${hash}`;
    expect(await admin.get(key)).toBe(JSON.stringify({ merchantId: 'sso-shop' }));
    const ttl = await admin.pttl(key);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    const keys = await admin.keys(`${keyPrefix}*`);
    expect(keys.some((name) => name.includes(minted.code))).toBe(false);
  });

  it('redeems a code minted on one replica once, on the other', async () => {
    const minted = await ssoOn(a).mint('sso-shop');
    if (minted.kind !== 'ok') throw new Error('mint failed');
    const first = await ssoOn(b).exchange(minted.code);
    expect(first.kind).toBe('ok');
    expect((await ssoOn(a).exchange(minted.code)).kind).toBe('invalid_code');
    expect((await ssoOn(b).exchange(minted.code)).kind).toBe('invalid_code');
  });

  it('gives exactly one session when both replicas race for one code', async () => {
    for (let round = 0; round < 20; round += 1) {
      const minted = await ssoOn(a).mint('sso-shop');
      if (minted.kind !== 'ok') throw new Error('mint failed');
      const results = await Promise.all([ssoOn(a).exchange(minted.code), ssoOn(b).exchange(minted.code), ssoOn(b).exchange(minted.code)]);
      expect(results.filter((result) => result.kind === 'ok')).toHaveLength(1);
    }
  });

  it('lets a code expire in Redis', async () => {
    const minted = await ssoOn(a, 1).mint('sso-shop');
    if (minted.kind !== 'ok') throw new Error('mint failed');
    const hash = createHash('sha256').update(minted.code).digest('hex');
    // Wait on Redis itself for the key to go, rather than sleeping a guessed time.
    const key = `${keyPrefix}one_time:sso:${hash}`;
    while ((await admin.exists(key)) === 1) await admin.wait(0, 100);
    expect((await ssoOn(b).exchange(minted.code)).kind).toBe('invalid_code');
  });
});
