import { Writable } from 'node:stream';
import { pino, type Logger as PinoLogger } from 'pino';

export interface PinoEntry {
  readonly level: number;
  readonly msg?: string;
  readonly [field: string]: unknown;
}

/**
 * A real root pino logger (what startServer takes) writing JSON lines into memory. Tests parse the
 * lines and await a message by its start, instead of sleeping until it might have been logged.
 */
export function createPinoSink(level: pino.LevelWithSilent = 'info'): {
  readonly logger: PinoLogger;
  readonly entries: PinoEntry[];
  /** Resolves with the first entry whose msg starts with `prefix`, already logged or still to come. */
  once(prefix: string): Promise<PinoEntry>;
  count(prefix: string): number;
} {
  const entries: PinoEntry[] = [];
  const waiters: { prefix: string; resolve: (entry: PinoEntry) => void }[] = [];
  const matches = (entry: PinoEntry, prefix: string): boolean => typeof entry.msg === 'string' && entry.msg.startsWith(prefix);
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        const entry = JSON.parse(line) as PinoEntry;
        entries.push(entry);
        for (let i = waiters.length - 1; i >= 0; i--) {
          if (matches(entry, waiters[i]!.prefix)) waiters.splice(i, 1)[0]!.resolve(entry);
        }
      }
      done();
    },
  });
  return {
    logger: pino({ level }, stream),
    entries,
    once(prefix) {
      const found = entries.find((entry) => matches(entry, prefix));
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ prefix, resolve }));
    },
    count: (prefix) => entries.filter((entry) => matches(entry, prefix)).length,
  };
}
