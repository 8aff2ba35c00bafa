import type { ChainableCommander } from 'ioredis';
import { isCluster, type RedisClient } from './redis-connection.js';

/** Adds one operation's commands to the shared pipeline. */
export type AddCommands = (pipeline: ChainableCommander) => void;

interface Entry {
  readonly start: number;
  readonly count: number;
  readonly resolve: (replies: readonly unknown[]) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Sends the commands of every operation started in the same turn of the event loop as one pipeline:
 * one write and one round trip where each operation would have made its own. The flush waits for
 * `setImmediate`, after the poll phase, so every request read from its socket in that phase joins
 * (a `nextTick` flush took only the operations of one callback: a write per request under load, and
 * each small write to Redis cost about as much as the reads it carried). Under load one Redis reply
 * resolves many requests at once and their next reads start together, so concurrent decisions share
 * their window, elimination and revocation reads, and the sr-windows worker's decision contexts go
 * out together. When idle the wait is nothing: the check phase follows the poll phase at once.
 *
 * ioredis' own `enableAutoPipelining` does this for every command, but it also covers the Lua
 * scripts, whose promises never settle when sent while disconnected with the offline queue off
 * (redis/ioredis#1511); here only plain commands join, and a failed pipeline rejects each caller.
 */
export function createTickPipeline(redis: RedisClient) {
  if (isCluster(redis)) return createClusterSender(redis);
  let pipeline: ChainableCommander | undefined;
  let entries: Entry[] = [];

  async function flush(): Promise<void> {
    const sending = pipeline!;
    const waiting = entries;
    pipeline = undefined;
    entries = [];
    let replies: [error: Error | null, reply: unknown][];
    try {
      replies = (await sending.exec()) ?? [];
    } catch (error) {
      for (const entry of waiting) entry.reject(error);
      return;
    }
    for (const entry of waiting) {
      const own = replies.slice(entry.start, entry.start + entry.count);
      const failed = own.find(([error]) => error !== null);
      if (own.length !== entry.count) entry.reject(new Error('missing pipeline reply'));
      else if (failed !== undefined) entry.reject(failed[0]);
      else entry.resolve(own.map(([, reply]) => reply));
    }
  }

  return {
    /** Resolves with this operation's replies, in the order `add` queued them. */
    send(add: AddCommands): Promise<readonly unknown[]> {
      if (pipeline === undefined) {
        pipeline = redis.pipeline();
        setImmediate(() => void flush());
      }
      const start = pipeline.length;
      add(pipeline);
      const count = pipeline.length - start;
      return new Promise((resolve, reject) => entries.push({ start, count, resolve, reject }));
    },
  };
}

/**
 * On a cluster one pipeline may only hold keys of one node (ioredis refuses the rest), and a tick's
 * operations touch many slots. Each command is therefore sent on its own, to the node of its slot;
 * ioredis writes the commands of one tick to a node together, and redirects (MOVED/ASK) and
 * failovers are handled per command. An operation resolves with its replies in order, or rejects with
 * the first failure.
 */
function createClusterSender(cluster: RedisClient) {
  const commands = cluster as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  return {
    send(add: AddCommands): Promise<readonly unknown[]> {
      const sent: Promise<unknown>[] = [];
      const recorder: ChainableCommander = new Proxy({} as ChainableCommander, {
        get(_target, name) {
          if (name === 'length') return sent.length;
          if (typeof name !== 'string') return undefined;
          return (...args: unknown[]) => {
            const command = commands[name];
            if (typeof command !== 'function') throw new TypeError(`unknown Redis command ${name}`);
            sent.push(command.apply(cluster, args));
            return recorder;
          };
        },
      });
      try {
        add(recorder);
      } catch (error) {
        return Promise.reject(error);
      }
      return Promise.all(sent);
    },
  };
}
