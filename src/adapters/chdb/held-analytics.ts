import { mapEventsToAnalyticsRows } from '../../analytics/map-event-to-rows.js';
import type { EventEnvelope } from '../../events/event-envelope.js';
import { rowsByTable } from '../clickhouse/analytics-tables.js';
import type { InsertColumn } from '../clickhouse/encode-tab-separated.js';
import { RowBinaryBuffer, rowBinaryEncoder, type RowBinaryEncoder } from './row-binary.js';

/** What held rows need of the chDB session: a table's column types, and an insert of RowBinary bytes. */
export interface RowBinaryTarget {
  /** `DESCRIBE TABLE`: column name → type. Throws when the table does not exist (yet). */
  columnTypes(table: string): ReadonlyMap<string, string>;
  /** Inserts `bytes` (rows of `columns` in RowBinary, typed as `types` says) into `table`. */
  insertRowBinary(table: string, columns: readonly InsertColumn[], types: ReadonlyMap<string, string>, bytes: Uint8Array): void;
}

interface HeldTable {
  readonly columns: readonly InsertColumn[];
  readonly bytes: RowBinaryBuffer;
  /** Rows that came before the table could be described (it did not exist yet): encoded at the insert. */
  readonly unencoded: object[];
}

interface TableEncoder {
  readonly types: ReadonlyMap<string, string>;
  readonly encode: RowBinaryEncoder;
}

/** A buffer grown past this by a large batch is let go after its insert rather than kept for the next. */
const keptBufferBytes = 16 * 1024 * 1024;

/**
 * Events handed to the chDB thread, held as encoded rows until their insert: mapped and encoded (as
 * `RowBinary`, see {@link RowBinaryBuffer}) as they arrive, spread over time rather than in one burst
 * per insert, and written as one insert per table. Handoffs are numbered; `insert` answers the last
 * number it covers, so the sender can let go of everything up to it.
 */
export class HeldAnalytics {
  readonly #target: RowBinaryTarget;
  readonly #tables = new Map<string, HeldTable>();
  readonly #encoders = new Map<string, TableEncoder>();
  #events = 0;
  #lastSeq = 0;
  #insertedThrough = 0;

  constructor(target: RowBinaryTarget) {
    this.#target = target;
  }

  /** Events held, not yet inserted. */
  get events(): number {
    return this.#events;
  }

  /**
   * Maps and encodes a handoff's events and holds them. Events that cannot be mapped or encoded (a
   * bug: they were validated when published) throw, and the whole handoff is passed over, none of its
   * bytes kept: holding it would only fail every insert after it.
   */
  add(seq: number, database: string, events: readonly EventEnvelope[]): void {
    const tables = rowsByTable(database, mapEventsToAnalyticsRows(events));
    // Where each table's held rows end now: a handoff that fails half way is cut back to it.
    const before = tables.map(({ table, columns }) => {
      const held = this.#held(table, columns);
      return { held, length: held.bytes.length, unencoded: held.unencoded.length };
    });
    try {
      tables.forEach(({ table, rows }, index) => {
        const { held } = before[index]!;
        const encoder = this.#encoderOrUndefined(table, held.columns);
        if (encoder === undefined) held.unencoded.push(...rows);
        else for (const row of rows) encoder.encode(held.bytes, row as Readonly<Record<string, unknown>>);
      });
    } catch (error) {
      for (const { held, length, unencoded } of before) {
        held.bytes.truncate(length);
        held.unencoded.length = unencoded;
      }
      throw error;
    }
    this.#lastSeq = seq;
    this.#events += events.length;
  }

  /**
   * Inserts everything held, one statement per table. A table's rows are let go as soon as its
   * insert returns, so after a failure a retry sends only the tables still held (a table written
   * twice would be harmless anyway: reads de-duplicate by event id).
   *
   * @returns the number of the last handoff now done with, or undefined when none is new.
   * @throws whatever the target throws; the rows not yet written stay held.
   */
  insert(): number | undefined {
    for (const [table, held] of this.#tables) {
      if (held.bytes.length === 0 && held.unencoded.length === 0) continue;
      const encoder = this.#encoder(table, held.columns);
      if (held.unencoded.length > 0) {
        const start = held.bytes.length;
        try {
          for (const row of held.unencoded) encoder.encode(held.bytes, row as Readonly<Record<string, unknown>>);
        } catch (error) {
          held.bytes.truncate(start);
          throw error;
        }
        held.unencoded.length = 0;
      }
      this.#target.insertRowBinary(table, held.columns, encoder.types, held.bytes.view());
      // The next rows start on the same buffer, unless a large batch grew it.
      if (held.bytes.capacity > keptBufferBytes) this.#tables.delete(table);
      else held.bytes.truncate(0);
    }
    this.#events = 0;
    if (this.#lastSeq === this.#insertedThrough) return undefined;
    this.#insertedThrough = this.#lastSeq;
    return this.#lastSeq;
  }

  #held(table: string, columns: readonly InsertColumn[]): HeldTable {
    let held = this.#tables.get(table);
    if (held === undefined) {
      held = { columns, bytes: new RowBinaryBuffer(), unencoded: [] };
      this.#tables.set(table, held);
    }
    return held;
  }

  /** The table's encoder; undefined while the table cannot be described (it does not exist yet). */
  #encoderOrUndefined(table: string, columns: readonly InsertColumn[]): TableEncoder | undefined {
    const known = this.#encoders.get(table);
    if (known !== undefined) return known;
    let types: ReadonlyMap<string, string>;
    try {
      types = this.#target.columnTypes(table);
    } catch {
      return undefined; // held unencoded: the insert describes it again (failing, and retried, until it exists)
    }
    return this.#encoderFor(table, columns, types);
  }

  /** The table's encoder, described once. */
  #encoder(table: string, columns: readonly InsertColumn[]): TableEncoder {
    return this.#encoders.get(table) ?? this.#encoderFor(table, columns, this.#target.columnTypes(table));
  }

  #encoderFor(table: string, columns: readonly InsertColumn[], types: ReadonlyMap<string, string>): TableEncoder {
    const encoder = { types, encode: rowBinaryEncoder(columns, types) };
    this.#encoders.set(table, encoder);
    return encoder;
  }
}
