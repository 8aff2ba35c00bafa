import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStateStore } from '../../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { StateStore } from '../../../src/ports/state-store.js';
import { createManualClock } from '../../../src/time/clock.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../../helpers/test-app.js';
import { deleteRedisNamespace, redisUrl, uniqueNamespace } from '../adapters/local-services.js';

/*
 * Conversation memory in distributed mode (issue 26): two API replicas over one real Redis, their
 * toolkits made as the service makes them over the replica's StateStore, against a local fake of
 * OpenAI's Chat Completions wire that records what it is sent. A session continued on the other
 * replica sees its earlier exchange; another merchant's same session id sees nothing.
 */

interface ChatBody {
  readonly model: string;
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
}
const messagesOf = (request: RecordedRequest) =>
  (request.body as ChatBody).messages.map((message) => ({ role: message.role, content: String(message.content) }));

const keyPrefix = `${uniqueNamespace('conversation-http')}:`;
let admin: Redis;
let provider: FakeHttpServer;
let stores: StateStore[];
let a: TestApp;
let b: TestApp;
let keyOne: string;
let keyTwo: string;

beforeAll(async () => {
  admin = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  await admin.connect();
  provider = await startFakeHttpServer((request) => {
    const body = request.body as ChatBody;
    return chatCompletion({ model: body.model, content: `Reply ${provider.requests.length}.`, usage: { promptTokens: 4, completionTokens: 2 } });
  });
  stores = await Promise.all([0, 1].map(async () => createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger })));
  const clock = createManualClock(Date.now());
  const toolkitEnv = { OPENAI_API_KEY: 'sk-redis-memory', OPENAI_BASE_URL: `${provider.url}/v1` };
  a = await createTestApp({ state: stores[0]!, clock, toolkitEnv });
  b = await createTestApp({ state: stores[1]!, clock, toolkitEnv });
  keyOne = (await createMerchant(a.app, 'redis-memory-one')).apiKey;
  keyTwo = (await createMerchant(a.app, 'redis-memory-two')).apiKey;
}, 120_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await Promise.all((stores ?? []).map((store) => store.close()));
  await provider?.close();
  if (admin !== undefined) {
    await deleteRedisNamespace(admin, keyPrefix);
    await admin.quit();
  }
});

async function generate(t: TestApp, key: string, text: string, sessionId: string) {
  const before = provider.requests.length;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/generate',
    headers: withKey(key),
    payload: { input: { text }, disableTools: true, context: { sessionId } },
  });
  expect(response.statusCode, response.body).toBe(200);
  return provider.requests.slice(before);
}

describe('conversation memory across replicas on Redis', () => {
  it('continues a session on the other replica; another merchant with the same session id starts empty', async () => {
    await generate(a, keyOne, 'Remember the colour teal.', 'shared-session');
    const [continued] = await generate(b, keyOne, 'Which colour?', 'shared-session');
    expect(messagesOf(continued!)).toEqual([
      { role: 'user', content: 'Remember the colour teal.' },
      { role: 'assistant', content: 'Reply 1.' },
      { role: 'user', content: 'Which colour?' },
    ]);
    const [other] = await generate(b, keyTwo, 'Which colour?', 'shared-session');
    expect(messagesOf(other!)).toEqual([{ role: 'user', content: 'Which colour?' }]);

    // Each merchant's session is its own pair of keys under one hash tag, expiring with the TTL.
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await admin.scan(cursor, 'MATCH', `${keyPrefix}{conv:*`, 'COUNT', 500);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
    expect(found.sort()).toEqual(
      [
        `${keyPrefix}{conv:redis-memory-one:shared-session}meta`,
        `${keyPrefix}{conv:redis-memory-one:shared-session}turns`,
        `${keyPrefix}{conv:redis-memory-two:shared-session}meta`,
        `${keyPrefix}{conv:redis-memory-two:shared-session}turns`,
      ].sort(),
    );
    expect(await admin.llen(`${keyPrefix}{conv:redis-memory-one:shared-session}turns`)).toBe(4);
    const ttlMs = await admin.pttl(`${keyPrefix}{conv:redis-memory-one:shared-session}turns`);
    expect(ttlMs).toBeGreaterThan(86_000_000);
    expect(ttlMs).toBeLessThanOrEqual(86_400_000);
  });
});
