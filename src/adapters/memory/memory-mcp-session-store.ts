import { OldestFirst } from './oldest-first.js';
import type { McpSessionRecord, McpSessionStore } from '../../ports/state-store.js';
import type { Clock } from '../../time/clock.js';

/** 10,000 sessions of about 1 KiB each: 10 MiB at most; the oldest goes first beyond it. */
export const defaultMaxMcpSessions = 10_000;

interface Entry {
  readonly record: McpSessionRecord;
  readonly expiresAtMs: number;
}

/** The embedded `McpSessionStore`: a bounded map in process memory (never journaled); expiry reads the store's clock. */
export function createMemoryMcpSessionStore(options: { readonly clock: Clock; readonly maxEntries?: number }): McpSessionStore {
  const maxEntries = options.maxEntries ?? defaultMaxMcpSessions;
  const entries = new Map<string, Entry>();
  const eviction = new OldestFirst(entries);
  return {
    async get(sessionId) {
      const entry = entries.get(sessionId);
      if (entry === undefined) return undefined;
      if (entry.expiresAtMs <= options.clock.now()) {
        entries.delete(sessionId);
        return undefined;
      }
      return structuredClone(entry.record);
    },
    async set(sessionId, record, ttlS) {
      entries.delete(sessionId);
      entries.set(sessionId, { record: structuredClone(record), expiresAtMs: options.clock.now() + ttlS * 1000 });
      eviction.trimTo(maxEntries);
    },
    async delete(sessionId) {
      return entries.delete(sessionId);
    },
  };
}
