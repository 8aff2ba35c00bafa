import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import type { RedisClient } from './redis-connection.js';

/**
 * The Lua scripts beside this file, registered as commands on a client (EVALSHA, falling back to
 * EVAL once per connection when the server has not cached the script).
 *
 * @remarks The `.lua` files are read relative to this module at client creation (never at import),
 * so the build must copy `src/adapters/redis/*.lua` next to the compiled `.js`.
 */
export interface ScriptCommands {
  /** record-outcome.lua → [applied, successes, length] */
  recordOutcome(
    windowKey: string,
    dedupeKey: string,
    outcome: string,
    bucketSize: number,
    dedupeTtlSeconds: number,
    windowTtlSeconds: number,
  ): Promise<[number, number, number]>;
  /** apply-elimination.lua → [applied, document JSON | null] */
  applyElimination(
    scoreKey: string,
    dedupeKey: string,
    factor: string,
    countsTransaction: string,
    nowMs: number,
    ttlMs: number,
    dedupeTtlSeconds: number,
  ): Promise<[number, string | null]>;
  /** create-user.lua → 1 created, 0 email taken */
  createUser(emailKey: string, userKey: string, userId: string, ...fieldValues: string[]): Promise<number>;
  /** add-membership.lua → 1 added, 0 already a member */
  addMembershipIfAbsent(membershipsKey: string, membersKey: string, userId: string, merchantId: string, role: string): Promise<number>;
  /** update-hash-if-exists.lua → previous fields (flat) or null */
  updateHashIfExists(key: string, ...fieldValues: string[]): Promise<string[] | null>;
  /** admit-usage.lua over the key's five counters → ['ok'] or [limit, retry-after seconds, 'key'] */
  admitUsage(
    requestsKey: string,
    tokensKey: string,
    leasesKey: string,
    reservationsKey: string,
    spendKey: string,
    ...args: string[]
  ): Promise<[string, string?, string?]>;
  /** admit-usage.lua over the key's five counters then its end user's five → ['ok'] or [limit, retry-after seconds, 'key' | 'end_user'] */
  admitUsageForEndUser(...keysThenArgs: string[]): Promise<[string, string?, string?]>;
  /** record-spend.lua → 1 counted, 0 counted before */
  recordSpend(markerKey: string, tokensKey: string, dayKey: string, monthKey: string, ...args: string[]): Promise<number>;
  /** record-spend.lua over the event's marker, the key's three counters, then its end user's three → 1 counted, 0 counted before */
  recordSpendForEndUser(...keysThenArgs: string[]): Promise<number>;
  /** adjust-sticky-count.lua → [applied, count afterwards] */
  adjustStickyCount(
    countsKey: string,
    dedupeKey: string,
    field: string,
    delta: number,
    ttlSeconds: number,
    maxEntries: number,
    dedupeTtlSeconds: number,
  ): Promise<[number, number]>;
}

/**
 * The client the stores get. Typed as one server's client; on a cluster it is ioredis' `Cluster`,
 * which has the same commands (a MULTI, script or pipeline must then stay within one hash slot).
 */
export type ScriptedRedis = Redis & ScriptCommands;

/** Every script with its key count (exported for the cluster slot test). */
export const scripts: readonly { name: keyof ScriptCommands; file: string; keys: number }[] = [
  { name: 'recordOutcome', file: 'record-outcome.lua', keys: 2 },
  { name: 'applyElimination', file: 'apply-elimination.lua', keys: 2 },
  { name: 'createUser', file: 'create-user.lua', keys: 2 },
  { name: 'updateHashIfExists', file: 'update-hash-if-exists.lua', keys: 1 },
  { name: 'addMembershipIfAbsent', file: 'add-membership.lua', keys: 2 },
  { name: 'admitUsage', file: 'admit-usage.lua', keys: 5 },
  { name: 'admitUsageForEndUser', file: 'admit-usage.lua', keys: 10 },
  { name: 'recordSpend', file: 'record-spend.lua', keys: 4 },
  { name: 'recordSpendForEndUser', file: 'record-spend.lua', keys: 7 },
  { name: 'adjustStickyCount', file: 'adjust-sticky-count.lua', keys: 2 },
];

export function defineScripts(redis: RedisClient): ScriptedRedis {
  for (const script of scripts) {
    const lua = readFileSync(new URL(`./${script.file}`, import.meta.url), 'utf8');
    redis.defineCommand(script.name, { numberOfKeys: script.keys, lua });
  }
  return redis as unknown as ScriptedRedis;
}
