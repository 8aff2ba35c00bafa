import type { KeyPolicy } from '../../governance/key-policy.js';
import type { ApiKeyRecord, ApiKeyStore } from '../../ports/state-store.js';
import type { RedisContext } from './redis-context.js';

function apiKeyFields(record: ApiKeyRecord): string[] {
  const fields = [
    'keyId',
    record.keyId,
    'merchantId',
    record.merchantId,
    'keyHash',
    record.keyHash,
    'keyPrefix',
    record.keyPrefix,
    'isActive',
    record.isActive ? '1' : '0',
    'createdAt',
    String(record.createdAt),
  ];
  // A null description is stored as an absent field, so it reads back as null, not "".
  if (record.description !== null) fields.push('description', record.description);
  if (record.policy !== undefined) fields.push('policy', JSON.stringify(record.policy));
  return fields;
}

function toApiKey(fields: Record<string, string>): ApiKeyRecord | undefined {
  if (fields.keyId === undefined) return undefined;
  return {
    keyId: fields.keyId,
    merchantId: fields.merchantId ?? '',
    keyHash: fields.keyHash ?? '',
    keyPrefix: fields.keyPrefix ?? '',
    description: fields.description ?? null,
    isActive: fields.isActive === '1',
    createdAt: Number(fields.createdAt ?? 0),
    ...(fields.policy !== undefined ? { policy: JSON.parse(fields.policy) as KeyPolicy } : {}),
  };
}

function pairsToRecord(flat: readonly string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) record[flat[i]!] = flat[i + 1]!;
  return record;
}

/**
 * API keys: a hash per key id, a hash → key id index (what every x-api-key request looks up) and a
 * set of key ids per merchant. All share the {api-keys} hash tag so `create` is one MULTI.
 *
 * @remarks Revoked keys stay findable by hash with `isActive: false`, so the middleware can answer
 * "API key is revoked" rather than "Invalid API key" (decision-engine behaviour).
 */
export function createRedisApiKeyStore(context: RedisContext): ApiKeyStore {
  const { keys } = context;

  async function findById(keyId: string): Promise<ApiKeyRecord | undefined> {
    const [fields] = await context.pipelined('apiKeys.findById', (pipeline) => {
      pipeline.hgetall(keys.apiKey(keyId));
    });
    return toApiKey(fields as Record<string, string>);
  }

  return {
    create: (record) =>
      context.call('apiKeys.create', async (redis) => {
        const replies = await redis
          .multi()
          .hset(keys.apiKey(record.keyId), ...apiKeyFields(record))
          .set(keys.apiKeyHash(record.keyHash), record.keyId)
          .sadd(keys.merchantApiKeys(record.merchantId), record.keyId)
          .exec();
        const failed = replies?.find(([error]) => error !== null);
        if (replies === null || failed !== undefined) throw failed?.[0] ?? new Error('MULTI aborted');
      }),
    findByHash: async (keyHash) => {
      const [keyId] = await context.pipelined('apiKeys.findByHash', (pipeline) => {
        pipeline.get(keys.apiKeyHash(keyHash));
      });
      return typeof keyId === 'string' ? findById(keyId) : undefined;
    },
    findById,
    listByMerchant: (merchantId) =>
      context.call('apiKeys.listByMerchant', async (redis) => {
        const keyIds = await redis.smembers(keys.merchantApiKeys(merchantId));
        if (keyIds.length === 0) return [];
        const pipeline = redis.pipeline();
        for (const keyId of keyIds) pipeline.hgetall(keys.apiKey(keyId));
        const replies = (await pipeline.exec()) ?? [];
        const records: ApiKeyRecord[] = [];
        for (const [error, fields] of replies) {
          if (error) throw error;
          const record = toApiKey(fields as Record<string, string>);
          if (record !== undefined) records.push(record);
        }
        return records.sort((a, b) => a.createdAt - b.createdAt || a.keyId.localeCompare(b.keyId));
      }),
    setPolicy: (keyId, policy) =>
      context.call('apiKeys.setPolicy', async (redis) => {
        // Only an existing key: HSET alone would create a stub record for an unknown id.
        const previous = await redis.updateHashIfExists(keys.apiKey(keyId), 'policy', JSON.stringify(policy));
        return previous === null ? undefined : toApiKey({ ...pairsToRecord(previous), policy: JSON.stringify(policy) });
      }),
    revoke: (keyId) =>
      context.call('apiKeys.revoke', async (redis) => {
        const before = await redis.updateHashIfExists(keys.apiKey(keyId), 'isActive', '0');
        await context.replicated(redis, keys.apiKey(keyId));
        return before === null ? undefined : toApiKey(pairsToRecord(before));
      }),
  };
}
