import { mkdir, open, readdir, readFile, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { EventEnvelope } from '../../events/event-envelope.js';
import type { Logger } from '../../logging/logger.js';

/**
 * The broker-outage spool: append-only JSONL files, one event per line, replayed oldest file first.
 *
 * Appends go to the newest ("active") file and are fsync'd before they resolve. The replayer only
 * reads files that were rotated away from the appender, so a file is never read while it grows.
 * Every operation that touches the file list runs one at a time.
 */
export interface DiskSpool {
  /** Events on disk, across all files (including files from a previous process). */
  readonly count: number;
  /** Appends events in order and fsyncs them. */
  append(events: readonly EventEnvelope[]): Promise<void>;
  /**
   * The oldest file's events, rotating the active file first when it is the only one left, or
   * undefined when the spool is empty.
   */
  takeOldest(): Promise<SpoolFile | undefined>;
  /** Deletes a fully replayed file. */
  remove(file: SpoolFile): Promise<void>;
  close(): Promise<void>;
}

export interface SpoolFile {
  readonly name: string;
  readonly events: readonly EventEnvelope[];
  /** Lines counted for this file; may exceed `events.length` by the unreadable lines skipped. */
  readonly lineCount: number;
}

/** 10,000 events: a few MB per file, so replay reads a bounded slice into memory at a time. */
const maxEventsPerFile = 10_000;
const filePattern = /^spool-(\d{16})\.jsonl$/;

function fileName(sequence: number): string {
  return `spool-${String(sequence).padStart(16, '0')}.jsonl`;
}

function countLines(text: string): number {
  let lines = 0;
  for (const line of text.split('\n')) if (line.trim() !== '') lines++;
  return lines;
}

/** Opens (creating if needed) the spool directory and counts what a previous process left in it. */
export async function openDiskSpool(options: { readonly dir: string; readonly logger: Logger }): Promise<DiskSpool> {
  const { dir, logger: log } = options;
  await mkdir(dir, { recursive: true });
  const files = new Map<string, number>(); // name → line count, in sequence order
  let nextSequence = 1;
  for (const name of (await readdir(dir)).filter((entry) => filePattern.test(entry)).sort()) {
    files.set(name, countLines(await readFile(join(dir, name), 'utf8')));
    nextSequence = Number(filePattern.exec(name)?.[1] ?? 0) + 1;
  }
  let count = [...files.values()].reduce((sum, lines) => sum + lines, 0);
  if (count > 0) log.warn({ dir, spooled: count, files: files.size }, 'event spool from a previous run found; replaying it');

  let active: { name: string; handle: FileHandle } | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  function serial<T>(step: () => Promise<T>): Promise<T> {
    const result = queue.then(step);
    queue = result.catch(() => undefined); // the caller gets the failure; the queue keeps going
    return result;
  }

  async function closeActive(): Promise<void> {
    if (active === undefined) return;
    const { handle } = active;
    active = undefined;
    await handle.close();
  }

  async function parseFile(name: string, lineCount: number): Promise<SpoolFile> {
    const events: EventEnvelope[] = [];
    const lines = (await readFile(join(dir, name), 'utf8')).split('\n');
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        events.push(JSON.parse(line) as EventEnvelope);
      } catch (error) {
        // A torn final line from a crash mid-append: the event never counted as accepted.
        log.error({ err: error, dir, file: name, line: index + 1 }, 'unreadable spool line skipped');
      }
    });
    return { name, events, lineCount };
  }

  return {
    get count() {
      return count;
    },
    append: (events) =>
      serial(async () => {
        if (events.length === 0) return;
        const lines = events.map((event) => `${JSON.stringify(event)}\n`).join('');
        if (active !== undefined && (files.get(active.name) ?? 0) >= maxEventsPerFile) await closeActive();
        if (active === undefined) {
          const name = fileName(nextSequence++);
          active = { name, handle: await open(join(dir, name), 'a') };
          files.set(name, 0);
        }
        await active.handle.write(lines);
        await active.handle.sync();
        files.set(active.name, (files.get(active.name) ?? 0) + events.length);
        count += events.length;
      }),
    takeOldest: () =>
      serial(async () => {
        const oldest = files.keys().next();
        if (oldest.done) return undefined;
        if (active?.name === oldest.value) await closeActive();
        return parseFile(oldest.value, files.get(oldest.value) ?? 0);
      }),
    remove: (file) =>
      serial(async () => {
        await unlink(join(dir, file.name));
        files.delete(file.name);
        count -= file.lineCount;
      }),
    close: () => serial(closeActive),
  };
}
