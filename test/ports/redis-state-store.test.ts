import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStateStore } from '../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import type { StateStore } from '../../src/ports/state-store.js';
import { deleteRedisNamespace, redisUrl, uniqueNamespace } from '../integration/adapters/local-services.js';
import { stateStoreSuite } from './state-store.suite.js';

let admin: Redis;

beforeAll(async () => {
  admin = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let connectionError: unknown;
  admin.on('error', (error: unknown) => {
    connectionError = error;
  });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`Redis is not reachable at ${redisUrl}: start it with \`bash deploy/local/start.sh redis\``, {
      cause: connectionError ?? error,
    });
  }
});

afterAll(() => {
  admin?.disconnect();
});

stateStoreSuite('redis', async () => {
  const keyPrefix = `${uniqueNamespace('state')}:`;
  const opened: StateStore[] = [];
  const open = async (): Promise<StateStore> => {
    const store = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
    opened.push(store);
    return store;
  };
  const store = await open();
  return {
    store,
    now: () => Date.now(),
    openPeer: open,
    async dispose() {
      await Promise.all(opened.map((instance) => instance.close()));
      await deleteRedisNamespace(admin, keyPrefix);
    },
  };
});

describe('RedisStateStore key layout', () => {
  let keyPrefix: string;
  let store: StateStore;

  beforeAll(async () => {
    keyPrefix = `${uniqueNamespace('layout')}:`;
    store = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
  });

  afterAll(async () => {
    await store?.close();
    await deleteRedisNamespace(admin, keyPrefix);
  });

  it('writes a window in the decision-engine queue layout with its TTL when an outcome is recorded', async () => {
    const windowKey = 'gw_sr_v3_score_m1_ORDER_PAYMENT_UPI_UPI_PAY_stripe';
    await store.scores.recordOutcome({
      windowKey,
      outcome: 0,
      bucketSize: 10,
      dedupeKey: 'event-1',
      dedupeTtlSeconds: 3600,
      windowTtlSeconds: 10_000_000,
    });
    const key = `${keyPrefix}{${windowKey}_}queue`;
    expect(await admin.lrange(key, 0, -1)).toEqual(['0', ...Array<string>(9).fill('1')]);
    const ttl = await admin.ttl(key);
    expect(ttl).toBeGreaterThan(9_999_000);
    expect(ttl).toBeLessThanOrEqual(10_000_000);
    expect(await admin.ttl(`${keyPrefix}{${windowKey}_}dedupe:event-1`)).toBeGreaterThan(3500);
  });

  it('writes the elimination score document with its millisecond TTL when a score is applied', async () => {
    const key = 'gw_score_m1_ORDER_PAYMENT_stripe_UPI_UPI_PAY';
    await store.scores.applyElimination({
      key,
      factor: 0.95,
      countsTransaction: true,
      nowMs: 1_700_000_000_000,
      ttlMs: 9_000_000,
      dedupeKey: 'event-2',
      dedupeTtlSeconds: 3600,
    });
    const raw = await admin.get(`${keyPrefix}{${key}}`);
    expect(JSON.parse(raw ?? 'null')).toEqual({
      score: 0.95,
      timestamp: 1_700_000_000_000,
      lastResetTimestamp: 1_700_000_000_000,
      transactionCount: 1,
    });
    const ttl = await admin.pttl(`${keyPrefix}{${key}}`);
    expect(ttl).toBeGreaterThan(8_990_000);
    expect(ttl).toBeLessThanOrEqual(9_000_000);
  });

  it('expires a decision context after the TTL it was given', async () => {
    await store.scores.putDecisionContext(
      {
        merchantId: 'm:1',
        paymentId: 'pay_1',
        decidedAt: 1,
        decisionEventId: 'e',
        windowDimension: null,
        eliminationDimension: 'gw_score_m1_ORDER_PAYMENT',
        eliminationEnabled: false,
        routingApproach: 'DEFAULT',
        orderType: 'ORDER_PAYMENT',
        payment: {
          orderType: 'ORDER_PAYMENT',
          paymentMethodType: 'CARD',
          paymentMethod: 'CREDIT',
          cardType: 'CREDIT',
          cardNetwork: 'VISA',
          cardIsIn: null,
          currency: 'USD',
          country: 'US',
          authType: null,
          amount: 10,
        },
      },
      1800,
    );
    const ttl = await admin.ttl(`${keyPrefix}gateway_scoring_data:m%3A1:pay_1`);
    expect(ttl).toBeGreaterThan(1790);
    expect(ttl).toBeLessThanOrEqual(1800);
  });

  it('keeps a revoked token until its expiry and a login-failure counter for its window', async () => {
    await store.sessions.revokeToken('jti-1', Date.now() + 120_000);
    const revokedTtl = await admin.pttl(`${keyPrefix}jwt_revoked:jti-1`);
    expect(revokedTtl).toBeGreaterThan(110_000);
    expect(revokedTtl).toBeLessThanOrEqual(120_000);
    await store.sessions.recordLoginFailure('a@example.com', 900);
    const failureTtl = await admin.ttl(`${keyPrefix}login_failures:a@example.com`);
    expect(failureTtl).toBeGreaterThan(890);
    expect(failureTtl).toBeLessThanOrEqual(900);
  });

  it('fails at start with SY_STATE_UNAVAILABLE naming the server when nothing listens', async () => {
    await expect(createRedisStateStore({ url: 'redis://127.0.0.1:1', keyPrefix: 'unused:', logger: silentLogger })).rejects.toMatchObject({
      code: 'SY_STATE_UNAVAILABLE',
      message: expect.stringContaining('127.0.0.1:1'),
    });
  });
});
