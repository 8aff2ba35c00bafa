import type { ActiveRoutingAlgorithms, RoutingAlgorithmRecord, RoutingRuleStore } from '../../ports/state-store.js';
import { activeIdsInOrder } from '../../routing-rules/active-order.js';
import { parseStored, type RedisContext } from './redis-context.js';

/*
 * Layout (all under the `{routing}` hash tag, so the scripts below touch one cluster slot):
 *   {routing}algo:<id>        JSON RoutingAlgorithmRecord
 *   {routing}by:<merchant>    SET of the merchant's algorithm ids
 *   {routing}active:<merchant> HASH slot → id (one active per (merchant, slot): an algorithm_for's
 *                              rule, or its `<algorithm_for>_experiment` slot)
 */

/** Update/delete refuse an active algorithm; checking and writing in one script closes the race with activate. */
const updateScript = `
local current = redis.call('GET', KEYS[1])
if not current then return 'missing' end
if cjson.decode(current)['createdBy'] ~= ARGV[2] then return 'missing' end
for _, id in ipairs(redis.call('HVALS', KEYS[2])) do
  if id == ARGV[3] then return 'active' end
end
if ARGV[1] == 'delete' then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[3], ARGV[3])
  return 'deleted'
end
redis.call('SET', KEYS[1], ARGV[4])
return 'updated'
`;

const deactivateScript = `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HDEL', KEYS[1], ARGV[1])
  return 1
end
return 0
`;

export function createRedisRoutingRuleStore(context: RedisContext): RoutingRuleStore {
  const { keys } = context;

  async function readMany(ids: readonly string[]): Promise<RoutingAlgorithmRecord[]> {
    if (ids.length === 0) return [];
    const raws = await context.call('routingRules.read', (redis) => redis.mget(...ids.map((id) => keys.routingAlgorithm(id))));
    const out: RoutingAlgorithmRecord[] = [];
    for (const raw of raws) {
      const record = parseStored<RoutingAlgorithmRecord>(raw);
      if (record !== undefined) out.push(record);
    }
    return out;
  }

  async function activeIds(createdBy: string): Promise<ActiveRoutingAlgorithms> {
    return context.call('routingRules.activeIds', async (redis) => (await redis.hgetall(keys.routingActive(createdBy))) as ActiveRoutingAlgorithms);
  }

  return {
    create: (record) =>
      context.call('routingRules.create', async (redis) => {
        const set = await redis.set(keys.routingAlgorithm(record.id), JSON.stringify(record), 'NX');
        if (set === null) return 'exists';
        await redis.sadd(keys.routingByMerchant(record.createdBy), record.id);
        return 'created';
      }),
    get: (id) => context.call('routingRules.get', async (redis) => parseStored<RoutingAlgorithmRecord>(await redis.get(keys.routingAlgorithm(id)))),
    async list(createdBy) {
      const ids = await context.call('routingRules.list', (redis) => redis.smembers(keys.routingByMerchant(createdBy)));
      return (await readMany(ids)).filter((record) => record.createdBy === createdBy).sort((a, b) => a.createdAt - b.createdAt);
    },
    update: (record) =>
      context.call('routingRules.update', async (redis) => {
        const keyList = [keys.routingAlgorithm(record.id), keys.routingActive(record.createdBy), keys.routingByMerchant(record.createdBy)];
        return (await redis.eval(updateScript, 3, ...keyList, 'update', record.createdBy, record.id, JSON.stringify(record))) as
          | 'updated'
          | 'missing'
          | 'active';
      }),
    delete: (createdBy, id) =>
      context.call('routingRules.delete', async (redis) => {
        const keyList = [keys.routingAlgorithm(id), keys.routingActive(createdBy), keys.routingByMerchant(createdBy)];
        return (await redis.eval(updateScript, 3, ...keyList, 'delete', createdBy, id, '')) as 'deleted' | 'missing' | 'active';
      }),
    activate: (createdBy, slot, id) =>
      context.call('routingRules.activate', async (redis) => {
        await redis.hset(keys.routingActive(createdBy), slot, id);
      }),
    deactivate: (createdBy, slot, id) =>
      context.call('routingRules.deactivate', async (redis) => (await redis.eval(deactivateScript, 1, keys.routingActive(createdBy), slot, id)) === 1),
    activeIds,
    async loadActive(createdBy) {
      const records = await readMany(activeIdsInOrder(await activeIds(createdBy)));
      return records.filter((record) => record.createdBy === createdBy);
    },
  };
}
