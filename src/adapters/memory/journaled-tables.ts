import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../logging/logger.js';

interface Entry {
  value: unknown;
  /** epoch ms; undefined = no expiry */
  expiresAt: number | undefined;
}

/** A table's rows, and a count of its changes (see {@link JournaledTables.version}). */
interface Table {
  readonly rows: Map<string, Entry>;
  version: number;
}

type JournalRecord =
  | { readonly t: string; readonly k: string; readonly v: unknown; readonly x?: number }
  | { readonly t: string; readonly k: string; readonly d: 1 };

/**
 * Named in-memory tables whose durable ones are journaled to `<dir>/state.jsonl`, so merchants,
 * configs, credentials and windows survive a restart of the embedded service.
 *
 * Each mutation of a durable table appends one JSON line (a synchronous write: ordered, and on disk
 * before the call returns). On open the journal is replayed, and rewritten as a compact snapshot
 * when it has grown well past the live data. Ephemeral tables (decision contexts, dedupe marks)
 * are never written: losing them on restart only makes late feedback count as unknown.
 */
export class JournaledTables {
  private readonly tables = new Map<string, Table>();
  private readonly durable: ReadonlySet<string>;
  private readonly path: string | undefined;
  private fd: number | undefined;
  private journalLines = 0;

  constructor(options: {
    readonly dir: string | undefined;
    readonly durableTables: readonly string[];
    readonly now: () => number;
    readonly logger: Logger;
  }) {
    this.durable = new Set(options.durableTables);
    this.now = options.now;
    this.logger = options.logger;
    if (options.dir !== undefined) {
      mkdirSync(options.dir, { recursive: true });
      this.path = join(options.dir, 'state.jsonl');
      this.replay();
      this.compact();
    }
  }

  private readonly now: () => number;
  private readonly logger: Logger;

  private table(name: string): Table {
    let table = this.tables.get(name);
    if (table === undefined) {
      table = { rows: new Map(), version: 0 };
      this.tables.set(name, table);
    }
    return table;
  }

  /**
   * A number that changes with every change to the table (a write, a delete, an entry expired, swept
   * or trimmed), and only then: a reader that built something from the table's rows may keep it for
   * as long as the version it read is current.
   */
  version(name: string): number {
    return this.table(name).version;
  }

  get<T>(name: string, key: string): T | undefined {
    const table = this.table(name);
    const entry = table.rows.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= this.now()) {
      table.rows.delete(key);
      table.version++;
      return undefined;
    }
    return entry.value as T;
  }

  has(name: string, key: string): boolean {
    return this.get(name, key) !== undefined;
  }

  set(name: string, key: string, value: unknown, ttlMs?: number): void {
    const table = this.table(name);
    const expiresAt = ttlMs === undefined ? undefined : this.now() + ttlMs;
    // delete + set moves the key to the end, so insertion order stays expiry order for sweep().
    table.rows.delete(key);
    table.rows.set(key, { value, expiresAt });
    table.version++;
    if (this.durable.has(name)) this.append(expiresAt === undefined ? { t: name, k: key, v: value } : { t: name, k: key, v: value, x: expiresAt });
  }

  delete(name: string, key: string): boolean {
    const existed = this.get(name, key) !== undefined;
    const table = this.table(name);
    if (table.rows.delete(key)) table.version++;
    if (existed && this.durable.has(name)) this.append({ t: name, k: key, d: 1 });
    return existed;
  }

  *entries<T>(name: string): Iterable<[string, T]> {
    const now = this.now();
    for (const [key, entry] of this.table(name).rows) {
      if (entry.expiresAt === undefined || entry.expiresAt > now) yield [key, entry.value as T];
    }
  }

  /**
   * Drops expired entries of a table whose entries all share one TTL: insertion order is then
   * expiry order, so the walk stops at the first live entry (O(expired), not O(size)).
   */
  sweepUniformTtl(name: string): void {
    const table = this.table(name);
    const now = this.now();
    for (const [key, entry] of table.rows) {
      if (entry.expiresAt === undefined || entry.expiresAt > now) break;
      table.rows.delete(key);
      table.version++;
    }
  }

  /**
   * Drops every expired entry of a table whose entries have different TTLs (O(size)). Not
   * journaled: replay skips expired records anyway.
   */
  sweepExpired(name: string): void {
    const table = this.table(name);
    const now = this.now();
    for (const [key, entry] of table.rows) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) {
        table.rows.delete(key);
        table.version++;
      }
    }
  }

  close(): void {
    if (this.fd !== undefined) {
      fsyncSync(this.fd);
      closeSync(this.fd);
      this.fd = undefined;
    }
  }

  private append(record: JournalRecord): void {
    if (this.path === undefined) return;
    this.fd ??= openSync(this.path, 'a');
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
    this.journalLines++;
    if (this.journalLines > 50_000 && this.journalLines > 4 * this.liveDurableEntries()) this.compact();
  }

  private liveDurableEntries(): number {
    let count = 0;
    for (const name of this.durable) count += this.table(name).rows.size;
    return count;
  }

  private replay(): void {
    if (this.path === undefined || !existsSync(this.path)) return;
    const text = readFileSync(this.path, 'utf8');
    const now = this.now();
    for (const line of text.split('\n')) {
      if (line === '') continue;
      let record: JournalRecord;
      try {
        record = JSON.parse(line) as JournalRecord;
      } catch (error) {
        // A torn last line from a crash mid-write: everything before it is intact; stop here.
        this.logger.warn({ err: error, path: this.path }, 'state journal ends in a torn line; ignoring it');
        break;
      }
      const rows = this.table(record.t).rows;
      if ('d' in record) rows.delete(record.k);
      else if (record.x === undefined || record.x > now) rows.set(record.k, { value: record.v, expiresAt: record.x });
      else rows.delete(record.k);
    }
  }

  /** Rewrites the journal as one line per live durable entry (write to a temp file, then rename). */
  private compact(): void {
    if (this.path === undefined) return;
    this.close();
    const temp = `${this.path}.tmp`;
    const fd = openSync(temp, 'w');
    let lines = 0;
    for (const name of this.durable) {
      for (const [key, entry] of this.table(name).rows) {
        const record: JournalRecord =
          entry.expiresAt === undefined ? { t: name, k: key, v: entry.value } : { t: name, k: key, v: entry.value, x: entry.expiresAt };
        writeSync(fd, `${JSON.stringify(record)}\n`);
        lines++;
      }
    }
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, this.path);
    this.journalLines = lines;
  }
}
