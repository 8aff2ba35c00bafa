import { readFileSync } from 'node:fs';
import type { BatchFinalization, BatchItem, BatchRecord, BatchSnapshot, ItemOutcome } from '../../ports/state/batch-store.js';
import type { BatchStore } from '../../ports/state-store.js';
import { parseStored, type RedisContext } from './redis-context.js';

/*
 * Layout (the keys of one batch share the `{batch:<id>}` hash tag, so each script touches one slot):
 *   {batch:<id>}record    JSON BatchRecord
 *   {batch:<id>}progress  HASH total, succeeded, failed, cancelled[, cancelledAt]
 *   {batch:<id>}prompts   HASH index → prompt
 *   {batch:<id>}results   HASH index → JSON ItemOutcome (write-once)
 *   batches:unfinished    SET of batch ids with pending items (kept beside, not inside, the scripts:
 *                         it spans every batch; an id left behind is pruned by `unfinished()`)
 *   batches:openai:<m>    ZSET of merchant m's OpenAI batch ids by creation time (beside the scripts
 *                         too; an expired id is pruned by `openAiBatchesOf()`)
 */

function readScript(file: string): string {
  return readFileSync(new URL(`./${file}`, import.meta.url), 'utf8');
}

function toSnapshot(recordJson: string | null, progress: Record<string, string>): BatchSnapshot | undefined {
  const record = parseStored<BatchRecord>(recordJson);
  if (record === undefined || progress['total'] === undefined) return undefined;
  const cancelledAt = progress['cancelledAt'];
  const finalization = parseStored<BatchFinalization>(progress['finalization'] ?? null);
  return {
    record,
    counts: { succeeded: Number(progress['succeeded'] ?? 0), failed: Number(progress['failed'] ?? 0), cancelled: Number(progress['cancelled'] ?? 0) },
    cancelledAt: cancelledAt === undefined ? undefined : Number(cancelledAt),
    ...(finalization !== undefined ? { finalization } : {}),
  };
}

export function createRedisBatchStore(context: RedisContext): BatchStore {
  const { keys } = context;
  // Read at store creation (never at import); the build copies the .lua files beside the .js.
  const createScript = readScript('create-batch.lua');
  const finishScript = readScript('finish-batch-item.lua');
  const cancelScript = readScript('cancel-batch.lua');
  const finalizeScript = readScript('finalize-batch.lua');

  async function totalOf(batchId: string): Promise<number> {
    const total = await context.call('batches.total', (redis) => redis.hget(keys.batchProgress(batchId), 'total'));
    return total === null ? 0 : Number(total);
  }

  async function readItems(batchId: string, indexes: readonly number[]): Promise<BatchItem[]> {
    if (indexes.length === 0) return [];
    const fields = indexes.map(String);
    const [prompts, results] = await context.call('batches.items', (redis) =>
      Promise.all([redis.hmget(keys.batchPrompts(batchId), ...fields), redis.hmget(keys.batchResults(batchId), ...fields)]),
    );
    const out: BatchItem[] = [];
    indexes.forEach((index, at) => {
      const prompt = prompts[at];
      if (prompt !== null && prompt !== undefined) out.push({ index, prompt, outcome: parseStored<ItemOutcome>(results[at] ?? null) });
    });
    return out;
  }

  async function get(batchId: string): Promise<BatchSnapshot | undefined> {
    const [recordJson, progress] = await context.call('batches.get', (redis) =>
      Promise.all([redis.get(keys.batchRecord(batchId)), redis.hgetall(keys.batchProgress(batchId))]),
    );
    return toSnapshot(recordJson, progress);
  }

  return {
    async create(record, prompts, ttlSeconds) {
      // Listed first: a crash between the two leaves a listed id whose batch never came, which
      // `unfinished()` prunes; the other order could leave a batch no worker resumes.
      await context.call('batches.create', (redis) => redis.sadd(keys.batchesUnfinished(), record.batchId));
      const created = await context.call('batches.create', (redis) =>
        redis.eval(
          createScript,
          3,
          keys.batchRecord(record.batchId),
          keys.batchProgress(record.batchId),
          keys.batchPrompts(record.batchId),
          String(ttlSeconds * 1000),
          JSON.stringify(record),
          String(prompts.length),
          ...prompts,
        ),
      );
      if (created === 1 && record.openAi !== undefined) {
        const listKey = keys.openAiBatchesOf(record.merchantId);
        // The newest batch lives longest: the list lasts as long as it does.
        await context.call('batches.create', (redis) =>
          redis
            .multi()
            .zadd(listKey, record.createdAt, record.batchId)
            .pexpire(listKey, ttlSeconds * 1000)
            .exec(),
        );
      }
      return created === 1 ? 'created' : 'exists';
    },

    get,

    async item(batchId, index) {
      const [item] = await readItems(batchId, [index]);
      return item;
    },

    async items(batchId, offset, limit) {
      const end = Math.min(await totalOf(batchId), offset + limit);
      const indexes: number[] = [];
      for (let index = offset; index < end; index++) indexes.push(index);
      return readItems(batchId, indexes);
    },

    async pendingIndexes(batchId) {
      const total = await totalOf(batchId);
      const finished = new Set(await context.call('batches.pending', (redis) => redis.hkeys(keys.batchResults(batchId))));
      const out: number[] = [];
      for (let index = 0; index < total; index++) if (!finished.has(String(index))) out.push(index);
      return out;
    },

    async finishItem(batchId, index, outcome) {
      const [result, pending] = (await context.call('batches.finishItem', (redis) =>
        redis.eval(finishScript, 2, keys.batchProgress(batchId), keys.batchResults(batchId), String(index), JSON.stringify(outcome), outcome.status),
      )) as [number, number];
      if (result === -1) return 'missing';
      if (result === 0) return 'already-finished';
      if (pending === 0) await context.call('batches.finishItem', (redis) => redis.srem(keys.batchesUnfinished(), batchId));
      return 'recorded';
    },

    async cancel(batchId, atMs) {
      const result = await context.call('batches.cancel', (redis) => redis.eval(cancelScript, 1, keys.batchProgress(batchId), String(atMs)));
      return result === 1 ? 'cancelled' : result === 0 ? 'already-cancelled' : 'missing';
    },

    async finalize(batchId, finalization) {
      const result = await context.call('batches.finalize', (redis) =>
        redis.eval(finalizeScript, 1, keys.batchProgress(batchId), JSON.stringify(finalization)),
      );
      return result === 1 ? 'recorded' : result === 0 ? 'already-finalized' : 'missing';
    },

    async openAiBatchesOf(merchantId) {
      const key = keys.openAiBatchesOf(merchantId);
      const ids = await context.call('batches.openAiBatchesOf', (redis) => redis.zrevrange(key, 0, -1));
      if (ids.length === 0) return [];
      const present = await context.call('batches.openAiBatchesOf', (redis) => Promise.all(ids.map((batchId) => redis.exists(keys.batchRecord(batchId)))));
      const gone = ids.filter((_, at) => present[at] === 0);
      if (gone.length > 0) await context.call('batches.openAiBatchesOf', (redis) => redis.zrem(key, ...gone));
      return ids.filter((_, at) => present[at] === 1);
    },

    async unfinished() {
      const ids = await context.call('batches.unfinished', (redis) => redis.smembers(keys.batchesUnfinished()));
      const out: string[] = [];
      for (const batchId of ids) {
        const snapshot = await get(batchId);
        const done = snapshot !== undefined && snapshot.counts.succeeded + snapshot.counts.failed + snapshot.counts.cancelled >= snapshot.record.total;
        // Expired, never created, or finished while its last SREM was lost: no longer listed.
        if (snapshot === undefined || done) await context.call('batches.unfinished', (redis) => redis.srem(keys.batchesUnfinished(), batchId));
        else out.push(batchId);
      }
      return out;
    },
  };
}
