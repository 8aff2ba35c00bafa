import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCachedStateStore } from '../../../src/adapters/cache/cached-state-store.js';
import { createRedisStateStore } from '../../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { StateStore } from '../../../src/ports/state-store.js';
import { createManualClock } from '../../../src/time/clock.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../../fixtures/providers/openai-wire.js';
import { createKeyWith, createMerchant, createTestApp, withKey, type TestApp } from '../../helpers/test-app.js';
import { deleteRedisNamespace, redisUrl, uniqueNamespace } from '../adapters/local-services.js';

/**
 * Per-key limits across two replicas of the service on one real Redis (each with its own
 * connections and cache, as separate processes would have): the limits hold for the key, not per
 * replica.
 */

let admin: Redis;
let provider: FakeHttpServer;
const stores: StateStore[] = [];
let a: TestApp;
let b: TestApp;
let keyPrefix: string;
let ownerKey: string;
const urls: string[] = [];

function upstream(request: RecordedRequest) {
  const body = request.body as { model: string; max_tokens?: number };
  return chatCompletion({ model: body.model, content: 'ok', usage: { promptTokens: 10, completionTokens: body.max_tokens ?? 5 } });
}

beforeAll(async () => {
  admin = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  await admin.connect();
  provider = await startFakeHttpServer(upstream);
  keyPrefix = `${uniqueNamespace('key-limits')}:`;
  const clock = createManualClock(Date.now());
  for (let index = 0; index < 2; index += 1) {
    const redis = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
    stores.push(redis);
  }
  const replica = (store: StateStore) =>
    createTestApp({
      state: createCachedStateStore(store, { clock, logger: silentLogger }),
      clock,
      toolkitEnv: { OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${provider.url}/v1` },
    });
  a = await replica(stores[0]!);
  b = await replica(stores[1]!);
  ({ apiKey: ownerKey } = await createMerchant(a.app, 'redis-limited'));
  for (const t of [a, b]) urls.push(`${await t.app.listen({ port: 0, host: '127.0.0.1' })}/v1`);
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await Promise.all(stores.map((store) => store.close()));
  await provider?.close();
  await deleteRedisNamespace(admin, keyPrefix);
  admin?.disconnect();
});

function keyWith(limits: unknown): Promise<{ keyId: string; apiKey: string }> {
  return createKeyWith(a.app, ownerKey, 'redis-limited', { limits });
}

const chat = (url: string, apiKey: string, maxTokens = 5) =>
  fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: maxTokens }),
  });

describe('per-key limits across two replicas on Redis', () => {
  it('serves exactly 50 of 100 parallel requests against rpm 50, half sent to each replica', async () => {
    const { apiKey } = await keyWith({ rpm: 50 });
    const before = provider.requests.length;
    const responses = await Promise.all(Array.from({ length: 100 }, (_, index) => chat(urls[index % 2]!, apiKey)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
    expect(provider.requests.length - before).toBe(50);
  });

  it("sees a limit set on one replica at the other's next request, and counts spend from both into one budget", async () => {
    const { keyId, apiKey } = await keyWith(undefined);
    expect((await chat(urls[1]!, apiKey)).status).toBe(200);
    const set = await a.app.inject({
      method: 'POST',
      url: `/api-key/${keyId}/limits`,
      headers: withKey(ownerKey),
      payload: { limits: { budget: { amount_usd: 0.0005, period: 'day' } } },
    });
    expect(set.statusCode, set.body).toBe(200);
    const statuses: number[] = [];
    for (let index = 0; index < 6; index += 1) statuses.push((await chat(urls[index % 2]!, apiKey, 400)).status);
    // Each call costs 0.00024 + a little: two fit in the budget, then both replicas refuse.
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
    await Promise.all([a.spendCounted(), b.spendCounted()]);
    const listed = (await b.app.inject({ method: 'GET', url: '/api-key/list/redis-limited', headers: withKey(ownerKey) })).json() as {
      key_id: string;
      usage: { spend_usd: number };
    }[];
    const spend = listed.find((item) => item.key_id === keyId)?.usage.spend_usd ?? 0;
    expect(spend).toBeGreaterThan(0.00048);
    expect(spend).toBeLessThanOrEqual(0.0005);
  });

  it("holds each end user's budget and the key's across both replicas: 200 parallel calls by 10 end users never overshoot", async () => {
    const perUser = 0.001;
    const keyBudget = 0.008;
    const { keyId, apiKey } = await keyWith({
      budget: { amount_usd: keyBudget, period: 'day' },
      per_end_user: { budget: { amount_usd: perUser, period: 'day' } },
    });
    const users = Array.from({ length: 10 }, (_, index) => `replica-user-${index}`);
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        fetch(`${urls[index % 2]!}/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'openai/gpt-4o-mini',
            messages: [{ role: 'user', content: 'hi' }],
            max_tokens: 400,
            user: users[index % users.length],
          }),
        }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    await Promise.all([a.spendCounted(), b.spendCounted()]);
    const now = a.clock.now();
    let total = 0;
    for (const user of users) {
      const usage = await stores[0]!.usage.usage(keyId, 'day', now, user);
      expect(usage.spendThisPeriodUsd).toBeLessThanOrEqual(perUser);
      expect(usage.reservedUsd).toBe(0);
      total += usage.spendThisPeriodUsd;
    }
    const keyUsage = await stores[1]!.usage.usage(keyId, 'day', now);
    expect(keyUsage.spendThisPeriodUsd).toBeCloseTo(total, 9);
    expect(keyUsage.spendThisPeriodUsd).toBeLessThanOrEqual(keyBudget);
  });
});
