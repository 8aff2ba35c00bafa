import type { McpSessionRecord, McpSessionStore } from '../../ports/state-store.js';
import { parseStored, type RedisContext } from './redis-context.js';

/**
 * The distributed `McpSessionStore`: one string key per session (the record's JSON) written with
 * `SET … EX`, so Redis expires an idle session; every replica can take over any session.
 */
export function createRedisMcpSessionStore(context: RedisContext): McpSessionStore {
  return {
    get: (sessionId) => context.call('mcpSessions.get', async (redis) => parseStored<McpSessionRecord>(await redis.get(context.keys.mcpSession(sessionId)))),
    set: (sessionId, record, ttlS) =>
      context.call('mcpSessions.set', async (redis) => {
        await redis.set(context.keys.mcpSession(sessionId), JSON.stringify(record), 'EX', Math.max(1, Math.ceil(ttlS)));
      }),
    delete: (sessionId) => context.call('mcpSessions.delete', async (redis) => (await redis.del(context.keys.mcpSession(sessionId))) === 1),
  };
}
