import { OldestFirst } from './oldest-first.js';
import type { ConversationKey, ConversationStore, StoredConversationMessage } from '../../ports/state/conversation-store.js';
import type { Clock } from '../../time/clock.js';

export interface MemoryConversationStoreOptions {
  /** Sessions kept at most; the least recently used go first. */
  readonly maxSessions: number;
  /** Expiry and each message's `at` are read from this clock. */
  readonly clock: Clock;
}

/** 10,000 sessions: with the default per-session bounds (100 messages, 256 KiB) a small host's worth. */
export const defaultMaxConversationSessions = 10_000;

interface Session {
  seq: number;
  summary: string | undefined;
  turns: (StoredConversationMessage & { readonly bytes: number })[];
  bytes: number;
  expiresAtMs: number;
}

/**
 * The embedded `ConversationStore`: a bounded LRU of sessions in process memory, never journaled
 * (a restart forgets conversations, as a Redis flush would). Reads hand out copies, so a caller
 * never holds an object the store later changes.
 */
export function createMemoryConversationStore(options: MemoryConversationStoreOptions): ConversationStore {
  /** Map order is recency order: a touch moves its session to the end, eviction takes from the front. */
  const sessions = new Map<string, Session>();
  const eviction = new OldestFirst(sessions);
  const idOf = (key: ConversationKey) => `${key.merchantId}\u0000${key.sessionId}`;

  function live(id: string): Session | undefined {
    const session = sessions.get(id);
    if (session === undefined) return undefined;
    if (session.expiresAtMs <= options.clock.now()) {
      sessions.delete(id);
      return undefined;
    }
    sessions.delete(id);
    sessions.set(id, session);
    return session;
  }

  return {
    async read(key) {
      const session = live(idOf(key));
      if (session === undefined) return { turns: [] };
      const turns = session.turns.map(({ bytes: _bytes, ...turn }) => ({ ...turn }));
      return session.summary === undefined ? { turns } : { summary: session.summary, turns };
    },
    async append(key, messages, bounds) {
      const id = idOf(key);
      const now = options.clock.now();
      const session = live(id) ?? { seq: 0, summary: undefined, turns: [], bytes: 0, expiresAtMs: 0 };
      for (const message of messages) {
        session.seq += 1;
        const bytes = Buffer.byteLength(message.content);
        session.turns.push({ seq: session.seq, role: message.role, content: message.content, at: now, bytes });
        session.bytes += bytes;
      }
      while (session.turns.length > 0 && (session.turns.length > bounds.maxTurns || session.bytes > bounds.maxBytes)) {
        session.bytes -= session.turns.shift()!.bytes;
      }
      session.expiresAtMs = now + bounds.ttlS * 1000;
      sessions.set(id, session);
      eviction.trimTo(options.maxSessions);
    },
    async compact(key, summary, throughSeq, ttlS) {
      const session = live(idOf(key));
      if (session === undefined) return;
      while (session.turns.length > 0 && session.turns[0]!.seq <= throughSeq) session.bytes -= session.turns.shift()!.bytes;
      session.summary = summary;
      session.expiresAtMs = options.clock.now() + ttlS * 1000;
    },
    async clear(key) {
      const id = idOf(key);
      const existed = live(id) !== undefined;
      sessions.delete(id);
      return existed;
    },
  };
}
