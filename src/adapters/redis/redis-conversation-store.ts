import { readFileSync } from 'node:fs';
import type { ConversationKey, ConversationStore, StoredConversationMessage } from '../../ports/state/conversation-store.js';
import type { RedisContext } from './redis-context.js';

/*
 * Layout (both keys of a session share its `{conv:<merchant>:<session>}` hash tag, so each script
 * and MULTI touches one slot; merchant and session are URI-encoded, so neither can run into the other):
 *   {conv:<m>:<s>}turns  LIST of JSON messages `{seq, role, content, at}`, oldest first
 *   {conv:<m>:<s>}meta   HASH seq (last sequence number), bytes (content bytes in the list), summary?
 * Both expire together, the TTL restarted by every append and compaction.
 */

function readScript(file: string): string {
  return readFileSync(new URL(`./${file}`, import.meta.url), 'utf8');
}

export function createRedisConversationStore(context: RedisContext): ConversationStore {
  const { keys } = context;
  // Read at store creation (never at import); the build copies the .lua files beside the .js.
  const appendScript = readScript('append-conversation.lua');
  const compactScript = readScript('compact-conversation.lua');
  const keysOf = (key: ConversationKey) =>
    [keys.conversationTurns(key.merchantId, key.sessionId), keys.conversationMeta(key.merchantId, key.sessionId)] as const;

  return {
    read: (key) =>
      context.call('conversations.read', async (redis) => {
        const [turnsKey, metaKey] = keysOf(key);
        const replies = await redis.multi().lrange(turnsKey, 0, -1).hget(metaKey, 'summary').exec();
        const failed = replies?.find(([error]) => error !== null);
        if (replies === null || failed !== undefined) throw failed?.[0] ?? new Error('conversation read was aborted');
        const turns = (replies[0]![1] as string[]).map((raw) => JSON.parse(raw) as StoredConversationMessage);
        const summary = replies[1]![1] as string | null;
        return summary === null ? { turns } : { summary, turns };
      }),
    append: (key, messages, bounds) =>
      context.call('conversations.append', async (redis) => {
        if (messages.length === 0) return;
        const args = messages.flatMap((message) => [message.role, message.content]);
        await redis.eval(
          appendScript,
          2,
          ...keysOf(key),
          String(Math.max(1, Math.ceil(bounds.ttlS * 1000))),
          String(bounds.maxTurns),
          String(bounds.maxBytes),
          String(context.clock.now()),
          ...args,
        );
      }),
    compact: (key, summary, throughSeq, ttlS) =>
      context.call('conversations.compact', async (redis) => {
        await redis.eval(compactScript, 2, ...keysOf(key), String(Math.max(1, Math.ceil(ttlS * 1000))), String(throughSeq), summary);
      }),
    clear: (key) => context.call('conversations.clear', async (redis) => (await redis.del(...keysOf(key))) > 0),
  };
}
