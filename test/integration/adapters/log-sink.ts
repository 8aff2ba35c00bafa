import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { Logger } from '../../../src/logging/logger.js';

export interface LogEntry {
  readonly level: number;
  readonly msg?: string;
  readonly [field: string]: unknown;
}

/** pino levels, for assertions on parsed lines. */
export const levels = { debug: 20, info: 30, warn: 40, error: 50 } as const;

/**
 * A real pino logger writing JSON lines into memory. Tests parse the lines (never match text) and
 * await a message instead of sleeping until it might have been logged.
 */
export function createLogSink(): {
  readonly logger: Logger;
  readonly entries: LogEntry[];
  /** Resolves with the first entry carrying `msg`, already logged or still to come. */
  once(msg: string): Promise<LogEntry>;
  count(msg: string): number;
} {
  const entries: LogEntry[] = [];
  const waiters: { msg: string; resolve: (entry: LogEntry) => void }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        const entry = JSON.parse(line) as LogEntry;
        entries.push(entry);
        for (let i = waiters.length - 1; i >= 0; i--) {
          if (waiters[i]!.msg === entry.msg) waiters.splice(i, 1)[0]!.resolve(entry);
        }
      }
      done();
    },
  });
  return {
    logger: pino({ level: 'debug' }, stream),
    entries,
    once(msg) {
      const found = entries.find((entry) => entry.msg === msg);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ msg, resolve }));
    },
    count: (msg) => entries.filter((entry) => entry.msg === msg).length,
  };
}
