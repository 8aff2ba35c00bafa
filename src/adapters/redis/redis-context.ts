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
}

/** Parses a JSON value this adapter wrote. Untyped on purpose: callers own the shape they stored. */
export function parseStored<T>(raw: string | null): T | undefined {
  return raw === null ? undefined : (JSON.parse(raw) as T);
}
