import type { DecisionContext, EliminationScore, ScoreStore, WindowRead } from '../../ports/state-store.js';
import type { Redis } from 'ioredis';
import { parseStored, type RedisContext } from './redis-context.js';
import { isCluster, type RedisClient } from './redis-connection.js';

/** decision-engine's elimination score document, as stored (apply-elimination.lua writes it). */
interface ScoreDocument {
  readonly score: number;
  readonly timestamp: number;
  readonly lastResetTimestamp?: number;
  readonly transactionCount: number;
}

function toEliminationScore(document: ScoreDocument): EliminationScore {
  return { score: document.score, transactionCount: document.transactionCount, updatedAt: document.timestamp };
}

const scanCount = 1_000;
const unlinkBatch = 500;

/**
 * Every key matching a SCAN pattern that `keep` accepts, deleted; the count deleted. SCAN walks one
 * server's keyspace, so on a cluster every master is scanned and its keys are unlinked on that master
 * (a pipeline stays on the node that owns its keys).
 */
async function deleteMatching(redis: Redis, pattern: string, keep: (key: string) => boolean): Promise<number> {
  const client = redis as unknown as RedisClient;
  const servers: Redis[] = isCluster(client) ? client.nodes('master') : [redis];
  let deleted = 0;
  for (const server of servers) deleted += await unlinkAll(server, await scanScoreKeys(server, pattern, keep));
  return deleted;
}

/** Every key matching a SCAN pattern that `keep` accepts. */
async function scanScoreKeys(redis: Redis, pattern: string, keep: (key: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', scanCount);
    cursor = next;
    for (const key of batch) if (keep(key)) found.push(key);
  } while (cursor !== '0');
  // SCAN may return a key more than once.
  return [...new Set(found)];
}

async function unlinkAll(redis: Redis, keys: readonly string[]): Promise<number> {
  let deleted = 0;
  for (let start = 0; start < keys.length; start += unlinkBatch) {
    const pipeline = redis.pipeline();
    for (const key of keys.slice(start, start + unlinkBatch)) pipeline.unlink(key);
    for (const [error, reply] of (await pipeline.exec()) ?? []) {
      if (error !== null) throw error;
      deleted += Number(reply);
    }
  }
  return deleted;
}

function summarise(entries: readonly string[]): WindowRead | undefined {
  if (entries.length === 0) return undefined;
  let successes = 0;
  for (const entry of entries) if (entry === '1') successes++;
  return { successes, length: entries.length };
}

/**
 * Success-rate windows (LIST per window, decision-engine SR v3 layout), elimination scores (JSON per
 * key) and decision contexts. Writes run as Lua scripts so the dedupe check, the seed, the push and
 * the trim happen atomically; reads of many keys are one pipelined round trip.
 *
 * @remarks Dedupe markers live in the same hash slot as the key they guard, so a dedupe key is
 * scoped to its window (or elimination key): the same dedupe key on two windows applies to both.
 */
export function createRedisScoreStore(context: RedisContext): ScoreStore {
  const { keys } = context;
  return {
    async readWindows(windowKeys, bucketSize) {
      if (windowKeys.length === 0) return [];
      const replies = await context.pipelined('scores.readWindows', (pipeline) => {
        for (const key of windowKeys) pipeline.lrange(keys.window(key), 0, bucketSize - 1);
      });
      return replies.map((entries) => summarise(entries as string[]));
    },

    recordOutcome: (input) =>
      context.call('scores.recordOutcome', async (redis) => {
        const [applied, successes, length] = await redis.recordOutcome(
          keys.window(input.windowKey),
          keys.windowDedupe(input.windowKey, input.dedupeKey),
          String(input.outcome),
          input.bucketSize,
          input.dedupeTtlSeconds,
          input.windowTtlSeconds,
        );
        // A duplicate on a window that does not exist reads as the optimistic start (no history ⇒ 1.0).
        const window = length === 0 ? { successes: input.bucketSize, length: input.bucketSize } : { successes, length };
        return { applied: applied === 1, window };
      }),

    async readEliminations(eliminationKeys) {
      if (eliminationKeys.length === 0) return [];
      const replies = await context.pipelined('scores.readEliminations', (pipeline) => {
        for (const key of eliminationKeys) pipeline.get(keys.elimination(key));
      });
      return replies.map((raw) => {
        const document = parseStored<ScoreDocument>(raw as string | null);
        return document === undefined ? undefined : toEliminationScore(document);
      });
    },

    applyElimination: (input) =>
      context.call('scores.applyElimination', async (redis) => {
        const [applied, raw] = await redis.applyElimination(
          keys.elimination(input.key),
          keys.eliminationDedupe(input.key, input.dedupeKey),
          String(input.factor),
          input.countsTransaction ? '1' : '0',
          input.nowMs,
          input.ttlMs,
          input.dedupeTtlSeconds,
        );
        const document = parseStored<ScoreDocument>(raw);
        const score = document === undefined ? { score: 1, transactionCount: 0, updatedAt: input.nowMs } : toEliminationScore(document);
        return { applied: applied === 1, score };
      }),

    deleteScores: (selection) =>
      context.call('scores.deleteScores', async (redis) => {
        // SCAN (never KEYS) over the merchant's hash-tagged keys: `{<window>_}queue` and `{<elimination>}`,
        // skipping their dedupe markers; each key is unlinked on its own, so it works across cluster slots.
        const windows = await deleteMatching(redis, keys.windowScanPattern(selection.windowKeyPrefix), (key) => {
          const windowKey = keys.windowKeyOf(key);
          return windowKey?.startsWith(selection.windowKeyPrefix) === true && selection.owns(windowKey);
        });
        const eliminations = await deleteMatching(redis, keys.eliminationScanPattern(selection.eliminationKeyPrefix), (key) => {
          const eliminationKey = keys.eliminationKeyOf(key);
          return eliminationKey?.startsWith(selection.eliminationKeyPrefix) === true && selection.owns(eliminationKey);
        });
        return windows + eliminations;
      }),

    async putDecisionContext(decision, ttlSeconds) {
      await context.pipelined('scores.putDecisionContext', (pipeline) => {
        pipeline.set(keys.decisionContext(decision.merchantId, decision.paymentId), JSON.stringify(decision), 'EX', ttlSeconds);
      });
    },

    async getDecisionContext(merchantId, paymentId) {
      const [raw] = await context.pipelined('scores.getDecisionContext', (pipeline) => {
        pipeline.get(keys.decisionContext(merchantId, paymentId));
      });
      return parseStored<DecisionContext>(raw as string | null);
    },
  };
}
