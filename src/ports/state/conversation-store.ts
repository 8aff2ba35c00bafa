/** Who said a remembered message: the caller's prompt, or the model's answer. */
export type ConversationRole = 'user' | 'assistant';

/** One remembered message of a session (a "turn" here is one message; an exchange is two). */
export interface ConversationMessage {
  readonly role: ConversationRole;
  readonly content: string;
}

/** A stored message: its place in the session (`seq`, 1 first, never reused) and when it was kept. */
export interface StoredConversationMessage extends ConversationMessage {
  readonly seq: number;
  /** Epoch milliseconds of the store's clock when it was appended. */
  readonly at: number;
}

/** What a session remembers: the summary of messages already folded away, then the messages kept. */
export interface ConversationSnapshot {
  /** Summary of every message before `turns[0]` that has been compacted away; absent until the first compaction. */
  readonly summary?: string;
  /** Oldest first. */
  readonly turns: readonly StoredConversationMessage[];
}

/** Where one conversation lives: always under its merchant, so another merchant's same session id is another conversation. */
export interface ConversationKey {
  /** The caller's merchant on the service; the library's local calls use '' (one local scope). */
  readonly merchantId: string;
  readonly sessionId: string;
}

/**
 * The bounds an append enforces: the oldest messages go first until at most `maxTurns` messages of
 * at most `maxBytes` bytes of content (UTF-8) are left; the session expires `ttlS` seconds after
 * its last append or compaction.
 */
export interface ConversationBounds {
  readonly maxTurns: number;
  readonly maxBytes: number;
  readonly ttlS: number;
}

/**
 * Conversation memory of the toolkit (issue 26): per merchant and session id, the recent messages
 * and a summary of older ones. Every method is atomic on its own (Redis: one script or MULTI on
 * the session's hash-tagged keys), so two replicas appending to one session never lose a message.
 *
 * @remarks Bounded three ways: per session by the bounds each append carries, in time by the TTL,
 * and in count by the adapter (the embedded one evicts the least recently used sessions; Redis
 * relies on the TTL and its `maxmemory` policy).
 */
export interface ConversationStore {
  /** The session's summary and messages; `{ turns: [] }` when there is none or it expired. */
  read(key: ConversationKey): Promise<ConversationSnapshot>;
  /** Appends messages in order, then trims the oldest to `bounds` and restarts the TTL. */
  append(key: ConversationKey, messages: readonly ConversationMessage[], bounds: ConversationBounds): Promise<void>;
  /**
   * Replaces every message with `seq <= throughSeq` by `summary` (which replaces any earlier
   * summary: the caller summarised that too) and restarts the TTL. Messages appended since the
   * caller read the session are kept. Nothing happens when the session is gone.
   */
  compact(key: ConversationKey, summary: string, throughSeq: number, ttlS: number): Promise<void>;
  /** Forgets the session; false when there was none. */
  clear(key: ConversationKey): Promise<boolean>;
}
