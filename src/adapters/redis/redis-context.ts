import type { Clock } from '../../time/clock.js';
import type { RedisKeys } from './redis-keys.js';
import type { ScriptedRedis } from './redis-scripts.js';
import type { AddCommands } from './tick-pipeline.js';

/** What each Redis sub-store needs: the key layout, the clock and a guarded way to run commands. */
export interface RedisContext {
  readonly keys: RedisKeys;
  readonly clock: Clock;
  /**
   * Runs one store operation. Failures leave as SwitchyardError (SY_STATE_UNAVAILABLE while Redis is
   * down, without waiting on a reconnect), never as an ioredis error.
   */
  call<T>(operation: string, run: (redis: ScriptedRedis) => Promise<T>): Promise<T>;
  /**
   * Runs one operation's plain commands in the pipeline every operation of this event-loop turn
   * shares (one round trip for all of them: see tick-pipeline.ts) and resolves with its replies in order. For
   * the hot reads and writes; scripts and MULTI go through `call`. Fails as `call` does.
   */
  pipelined(operation: string, add: AddCommands): Promise<readonly unknown[]>;
  /**
   * After a write that must survive a failover (a revocation, a spend, an admission): on a Redis
   * Cluster, waits (WAIT, bounded by a short timeout) until the writes made on `key`'s master reached
   * one replica, so a master killed right after the answer does not take them with it (replication
   * is asynchronous). Best effort: while a shard has no replica the wait ends at the timeout and the
   * write stands as acknowledged. On one server (REDIS_URL) it does nothing.
   */
  replicated(redis: ScriptedRedis, key: string): Promise<void>;
}

/** Parses a JSON value this adapter wrote. Untyped on purpose: callers own the shape they stored. */
export function parseStored<T>(raw: string | null): T | undefined {
  return raw === null ? undefined : (JSON.parse(raw) as T);
}
