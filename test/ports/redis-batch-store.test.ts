import { describe, expect, it } from 'vitest';
import { createRedisStateStore } from '../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { deleteRedisNamespace, redisAdminForFile, redisUrl, uniqueNamespace } from '../integration/adapters/local-services.js';
import { batchStoreSuite } from './batch-store.suite.js';

const admin = redisAdminForFile();

batchStoreSuite('redis', async () => {
  const keyPrefix = `${uniqueNamespace('batches')}:`;
  const state = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
  return {
    store: state.batches,
    async dispose() {
      await state.close();
      await deleteRedisNamespace(admin(), keyPrefix);
    },
  };
});

describe('Redis batch store layout', () => {
  it('keeps a batch under one hash tag, every key with the batch TTL, results included', async () => {
    const keyPrefix = `${uniqueNamespace('batch-layout')}:`;
    const state = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
    try {
      const record = { batchId: 'b:1', merchantId: 'm1', createdAt: 1, total: 2, options: { provider: 'openai' as const, timeoutMs: 1000 }, maxAttempts: 2 };
      await state.batches.create(record, ['one', 'two'], 600);
      await state.batches.finishItem('b:1', 0, { status: 'cancelled', finishedAt: 2 });
      const tag = `${keyPrefix}{batch:b%3A1}`;
      expect(await admin().hgetall(`${tag}prompts`)).toEqual({ 0: 'one', 1: 'two' });
      expect(await admin().hget(`${tag}progress`, 'cancelled')).toBe('1');
      for (const suffix of ['record', 'progress', 'prompts', 'results']) {
        const ttl = await admin().pttl(`${tag}${suffix}`);
        expect(ttl, suffix).toBeGreaterThan(590_000);
        expect(ttl, suffix).toBeLessThanOrEqual(600_000);
      }
      expect(await admin().smembers(`${keyPrefix}batches:unfinished`)).toEqual(['b:1']);
      await state.batches.finishItem('b:1', 1, { status: 'cancelled', finishedAt: 2 });
      expect(await admin().smembers(`${keyPrefix}batches:unfinished`)).toEqual([]);
    } finally {
      await state.close();
      await deleteRedisNamespace(admin(), keyPrefix);
    }
  });
});
