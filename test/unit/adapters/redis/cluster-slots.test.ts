import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import calculateSlot from 'cluster-key-slot';
import { describe, expect, it } from 'vitest';
import { createRedisApiKeyStore } from '../../../../src/adapters/redis/redis-api-key-store.js';
import { createRedisBatchStore } from '../../../../src/adapters/redis/redis-batch-store.js';
import { createRedisConfigStore } from '../../../../src/adapters/redis/redis-config-store.js';
import type { RedisContext } from '../../../../src/adapters/redis/redis-context.js';
import { createRedisStickyStore } from '../../../../src/adapters/redis/redis-sticky-store.js';
import { createRedisCacheAffinityStore } from '../../../../src/adapters/redis/redis-cache-affinity-store.js';
import { createRedisConversationStore } from '../../../../src/adapters/redis/redis-conversation-store.js';
import { createRedisCredentialStore } from '../../../../src/adapters/redis/redis-credential-store.js';
import { createRedisKeys } from '../../../../src/adapters/redis/redis-keys.js';
import { createRedisMerchantStore } from '../../../../src/adapters/redis/redis-merchant-store.js';
import { createRedisResponseCache } from '../../../../src/adapters/redis/redis-response-cache.js';
import { createRedisResponseStore } from '../../../../src/adapters/redis/redis-response-store.js';
import { createRedisRoutingRuleStore } from '../../../../src/adapters/redis/redis-routing-rule-store.js';
import { createRedisScoreStore } from '../../../../src/adapters/redis/redis-score-store.js';
import { scripts, type ScriptedRedis } from '../../../../src/adapters/redis/redis-scripts.js';
import { createRedisSessionStore } from '../../../../src/adapters/redis/redis-session-store.js';
import { createRedisUsageStore } from '../../../../src/adapters/redis/redis-usage-store.js';
import { createRedisUserStore } from '../../../../src/adapters/redis/redis-user-store.js';

/**
 * Issue 27: on a Redis Cluster a Lua script, a MULTI and a pipeline may only touch keys of one hash
 * slot (CROSSSLOT otherwise). Every store of the Redis adapter is driven here through a client that
 * records what it is asked to run, with the real key layout (redis-keys.ts); the slot of every key a
 * script, MULTI or pipeline is called with is computed with ioredis' own function (cluster-key-slot)
 * and must be one. The test also finds every `.multi()`, `.eval(`, `.pipeline()` and defined-script
 * call in the adapter's source and fails when one was never reached: a new script is covered (add
 * its call to `drive` below) or the test fails.
 */
const redisDir = fileURLToPath(new URL('../../../../src/adapters/redis/', import.meta.url));

interface Recorded {
  readonly kind: string;
  readonly keys: readonly string[];
  /** `file.ts:line` of the adapter code that made the call. */
  readonly site: string;
  readonly lua?: string;
}

function callSite(): string {
  const lines = (new Error().stack ?? '').split('\n');
  for (const line of lines) {
    const match = /src\/adapters\/redis\/([\w-]+\.ts):(\d+)/.exec(line);
    if (match) return `${match[1]}:${match[2]}`;
  }
  return 'unknown';
}

const scriptKeys = new Map(scripts.map((script) => [script.name as string, script.keys]));

/** Plausible replies, so each store method runs on past its call. */
function replyOf(name: string): unknown {
  if (name === 'recordOutcome') return [1, 1, 1];
  if (name === 'applyElimination') return [1, null];
  if (name === 'admitUsage' || name === 'admitUsageForEndUser') return ['ok'];
  if (name === 'smembers') return ['one', 'two'];
  if (name === 'hgetall') return {};
  if (name === 'scan') return ['0', []];
  // A created batch (redis-batch-store's create script) goes on to list an OpenAI batch per merchant.
  if (name === 'eval') return 1;
  return null;
}

function recordingClient(recorded: Recorded[]): ScriptedRedis {
  function chain(kind: string, site: string): unknown {
    const keys: string[] = [];
    let length = 0;
    const proxy: unknown = new Proxy(
      {},
      {
        get(_target, name) {
          if (name === 'then') return undefined;
          if (name === 'length') return length;
          if (name === 'exec')
            return async () => {
              recorded.push({ kind, keys, site });
              return Array.from({ length }, () => [null, null]);
            };
          return (...args: unknown[]) => {
            length++;
            const count = typeof name === 'string' ? scriptKeys.get(name) : undefined;
            if (count !== undefined) keys.push(...(args.slice(0, count) as string[]));
            else if (name === 'eval') keys.push(...(args.slice(2, 2 + Number(args[1])) as string[]));
            else if (typeof args[0] === 'string') keys.push(args[0]);
            return proxy;
          };
        },
      },
    );
    return proxy;
  }
  return new Proxy({} as ScriptedRedis, {
    get(_target, name) {
      if (name === 'then') return undefined;
      if (name === 'multi') return () => chain('multi', callSite());
      if (name === 'pipeline') return () => chain('pipeline', callSite());
      return async (...args: unknown[]) => {
        const count = typeof name === 'string' ? scriptKeys.get(name) : undefined;
        if (count !== undefined) recorded.push({ kind: `script ${String(name)}`, keys: args.slice(0, count) as string[], site: callSite() });
        if (name === 'eval') {
          recorded.push({ kind: 'eval', keys: args.slice(2, 2 + Number(args[1])) as string[], site: callSite(), lua: String(args[0]) });
        }
        return replyOf(String(name));
      };
    },
  });
}

function createStores(recorded: Recorded[], prefix: string) {
  const redis = recordingClient(recorded);
  const context: RedisContext = {
    keys: createRedisKeys(prefix),
    clock: { now: () => 1_700_000_000_000 },
    call: (_operation, run) => run(redis),
    pipelined: async () => [],
    replicated: async () => undefined,
  };
  return {
    merchants: createRedisMerchantStore(context),
    configs: createRedisConfigStore(context),
    scores: createRedisScoreStore(context),
    users: createRedisUserStore(context),
    apiKeys: createRedisApiKeyStore(context),
    sessions: createRedisSessionStore(context),
    credentials: createRedisCredentialStore(context),
    routingRules: createRedisRoutingRuleStore(context),
    batches: createRedisBatchStore(context),
    usage: createRedisUsageStore(context),
    responseCache: createRedisResponseCache(context),
    responses: createRedisResponseStore(context),
    conversations: createRedisConversationStore(context),
    cacheAffinity: createRedisCacheAffinityStore(context),
    sticky: createRedisStickyStore(context),
  };
}

/** Calls every method of every store with ids that differ per argument (so unrelated keys land in different slots). */
async function drive(stores: ReturnType<typeof createStores>): Promise<void> {
  const sample = (n: number) => `id-${n}-${'x'.repeat(n)}`;
  const record = {
    keyId: sample(1),
    merchantId: sample(2),
    keyHash: sample(3),
    keyPrefix: 'DE_x',
    description: null,
    isActive: true,
    createdAt: 1,
    userId: sample(4),
    email: `${sample(5)}@example.com`,
    passwordHash: 'h',
    currentMerchantId: sample(6),
    id: sample(7),
    createdBy: sample(8),
    name: 'n',
  };
  for (const store of Object.values(stores) as unknown as Record<string, unknown>[]) {
    for (const method of Object.values(store)) {
      if (typeof method !== 'function') continue;
      const argumentSets: unknown[][] = [
        [sample(10), sample(11), sample(12), sample(13), sample(14)],
        [record, sample(11), sample(12)],
        // An OpenAI batch (issue 39) is also listed per merchant.
        [{ ...record, openAi: { endpoint: '/v1/chat/completions' } }, [sample(11)], 60],
        [sample(10), record, { eventId: sample(15), tokens: 1, costUsd: 1, atMs: 1, leaseId: sample(16), reserveUsd: 1, nowMs: 1, leaseTtlMs: 1 }],
        [sample(10), { budget: { amountUsd: 1, period: 'day' } }, { leaseId: sample(16), reserveUsd: 1, nowMs: 1, leaseTtlMs: 1 }],
        // The usage store with an end user: its counters must share the key's slot.
        [
          sample(10),
          { budget: { amountUsd: 1, period: 'day' } },
          { leaseId: sample(16), reserveUsd: 1, nowMs: 1, leaseTtlMs: 1 },
          { endUser: sample(22), limits: { rpm: 1, budget: { amountUsd: 1, period: 'month' } } },
        ],
        // Spend of a key alone, then with its end user (record-spend.lua over four keys, then seven).
        [sample(10), { eventId: sample(15), tokens: 1, costUsd: 1, atMs: 1 }],
        [sample(10), { eventId: sample(15), tokens: 1, costUsd: 1, atMs: 1 }, sample(22)],
        [sample(10), sample(16), sample(22)],
        [sample(10), 'day', 1, sample(22)],
        [
          {
            windowKey: sample(17),
            key: sample(18),
            dedupeKey: sample(19),
            outcome: 1,
            bucketSize: 10,
            factor: 0.5,
            countsTransaction: true,
            nowMs: 1,
            ttlMs: 1,
            dedupeTtlSeconds: 1,
            windowTtlSeconds: 1,
          },
        ],
        [{ merchantId: sample(2), sessionId: sample(9) }, [{ role: 'user', content: 'x' }], { ttlS: 60, maxTurns: 10, maxBytes: 1000 }],
        [sample(10), 0, { status: 'completed' }, sample(12)],
        [
          {
            customer: { merchantId: sample(2), customerKey: sample(20) },
            combo: 'VISA:CARD',
            connector: sample(21),
            delta: 1,
            ttlSeconds: 1,
            maxEntries: 1,
            dedupeKey: sample(19),
            dedupeTtlSeconds: 1,
          },
        ],
      ];
      for (const args of argumentSets) {
        // Only what was sent matters here: a reply this recorder cannot fake may fail the method after, and that outcome is not looked at.
        await Promise.resolve()
          .then(() => (method as (...args: unknown[]) => Promise<unknown>).apply(store, args))
          .catch((caught: unknown) => caught);
      }
    }
  }
}

/**
 * Calls that may span slots by design, with the reason. Nothing else may be added here without the
 * same care: a cluster refuses a cross-slot script, MULTI or pipeline.
 */
const crossSlotByDesign: readonly { file: string; line: string; reason: string }[] = [
  {
    file: 'redis-score-store.ts',
    line: 'const pipeline = redis.pipeline();',
    reason: 'unlinkAll runs on one server connection: on a cluster, each master with the keys it scanned',
  },
];

/** `file.ts:line` of every multi/eval/pipeline/defined-script call in the store modules. */
function callSitesInSource(): string[] {
  const sites: string[] = [];
  const scriptCall = new RegExp(`\\.(${scripts.map((script) => script.name).join('|')})\\(`);
  for (const file of readdirSync(redisDir)) {
    // redis-state-store.ts composes the stores; its own pipeline (WAIT after a write) has one key.
    if ((!file.endsWith('-store.ts') && file !== 'redis-response-cache.ts') || file === 'redis-state-store.ts') continue;
    const lines = readFileSync(`${redisDir}${file}`, 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (crossSlotByDesign.some((allowed) => allowed.file === file && line.trim() === allowed.line)) return;
      if (/\.multi\(\)|\.eval\(|\.pipeline\(\)/.test(line) || scriptCall.test(line)) sites.push(`${file}:${index + 1}`);
    });
  }
  return sites;
}

describe('Redis adapter on a cluster: one hash slot per script, MULTI and pipeline', () => {
  for (const prefix of ['sy:', 'tenant-a:']) {
    it(`keeps every script, MULTI and pipeline in one slot (key prefix ${prefix})`, async () => {
      const recorded: Recorded[] = [];
      await drive(createStores(recorded, prefix));
      const crossSlot = recorded
        .filter((call) => call.keys.length > 0 && new Set(call.keys.map((key) => calculateSlot(key))).size !== 1)
        .map((call) => `${call.kind} at ${call.site}: ${call.keys.join(', ')}`);
      expect(crossSlot).toEqual([]);
      // Every key of a call is a string the key layout built under the prefix.
      for (const call of recorded) for (const key of call.keys) expect(key.startsWith(prefix)).toBe(true);
    });
  }

  it('reaches every script, MULTI and pipeline call of the store modules', async () => {
    const recorded: Recorded[] = [];
    await drive(createStores(recorded, 'sy:'));
    const reached = new Set(recorded.map((call) => call.site));
    const sites = callSitesInSource();
    expect(sites.length).toBeGreaterThan(10);
    expect(sites.filter((site) => !reached.has(site))).toEqual([]);
  });

  it('runs every .lua file of the adapter', async () => {
    const recorded: Recorded[] = [];
    await drive(createStores(recorded, 'sy:'));
    const defined = new Set(scripts.filter((script) => recorded.some((call) => call.kind === `script ${script.name}`)).map((script) => script.file));
    const evaluated = new Set(recorded.flatMap((call) => (call.lua === undefined ? [] : [call.lua])));
    const luaFiles = readdirSync(redisDir).filter((file) => file.endsWith('.lua'));
    const unreached = luaFiles.filter((file) => !defined.has(file) && !evaluated.has(readFileSync(`${redisDir}${file}`, 'utf8')));
    expect(luaFiles.length).toBeGreaterThan(5);
    expect(unreached).toEqual([]);
  });

  it('tells a cross-slot call apart (the check can fail)', () => {
    const keys = createRedisKeys('sy:');
    expect(calculateSlot(keys.user('a'))).toBe(calculateSlot(keys.userEmail('b@example.com')));
    expect(calculateSlot(keys.revokedToken('a'))).not.toBe(calculateSlot(keys.revokedToken('b')));
  });
});
