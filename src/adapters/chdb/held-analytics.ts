import { mapEventsToAnalyticsRows } from '../../analytics/map-event-to-rows.js';
import type { EventEnvelope } from '../../events/event-envelope.js';
import { analyticsColumnTypes } from '../clickhouse/analytics-column-types.js';
import { analyticsInsertColumns, rowsByTable, type AnalyticsTable } from '../clickhouse/analytics-tables.js';
import type { InsertColumn } from '../clickhouse/encode-tab-separated.js';
import { RowBinaryBuffer, rowBinaryEncoder, rowBinaryStructure, type RowBinaryEncoder } from './row-binary.js';

/** Inserts `bytes` (rows of `columns` in RowBinary, `structure` naming their types) into `table` (`<database>.<table>`). */
export type RowBinaryInsert = (table: string, columns: readonly InsertColumn[], structure: string, bytes: Uint8Array) => void;

interface HeldTable {
  /** The bare name (the map's key is `<database>.<table>`). */
  readonly table: AnalyticsTable;
  readonly bytes: RowBinaryBuffer;
}

/** How a table's rows are written: its insert columns, their encoder, and the `file()` structure naming their types. */
interface TableCodec {
  readonly columns: readonly InsertColumn[];
  readonly encode: RowBinaryEncoder;
  readonly structure: string;
}

const codecs = new Map<AnalyticsTable, TableCodec>();

/** The table's codec, built once (the columns and types are constants). */
function codecOf(table: AnalyticsTable): TableCodec {
  let codec = codecs.get(table);
  if (codec === undefined) {
    const columns = analyticsInsertColumns[table];
    const types = analyticsColumnTypes[table];
    codec = { columns, encode: rowBinaryEncoder(columns, types), structure: rowBinaryStructure(columns, types) };
    codecs.set(table, codec);
  }
  return codec;
}

/**
 * A buffer grown past this by a large batch is let go after its insert rather than kept for the next.
 * A second of decisions at 15,000 a second is ~21 MB of domain rows: kept, the buffer is not grown
 * again from 64 KiB (copying each doubling) for every insert.
 */
const keptBufferBytes = 64 * 1024 * 1024;

/**
 * Events handed to the chDB thread, held as encoded rows until their insert: mapped and encoded (as
 * `RowBinary`, see {@link RowBinaryBuffer}) as they arrive, spread over time rather than in one burst
 * per insert, and written as one insert per table. Handoffs are numbered; `insert` answers the last
 * number it covers, so the sender can let go of everything up to it.
 *
 * @remarks Mapping and encoding stay on this thread: done on the API's thread instead (and the rows
 * sent here), they cost that thread 11 µs more per decision than the JSON it no longer wrote, and
 * decide answered 7 % fewer requests (bench/README.md).
 */
export class HeldAnalytics {
  /** By `<database>.<table>`. */
  readonly #tables = new Map<string, HeldTable>();
  #events = 0;
  #lastSeq = 0;
  #insertedThrough = 0;

  /** Events held, not yet inserted. */
  get events(): number {
    return this.#events;
  }

  /**
   * Maps and encodes a handoff's events and holds them. Events that cannot be mapped or encoded (a
   * bug: they were validated when published, and rows come from our own mappers) throw, and the whole
   * handoff is passed over, none of its bytes kept: holding it would only fail every insert after it.
   */
  add(seq: number, database: string, events: readonly EventEnvelope[]): void {
    const tables = rowsByTable(database, mapEventsToAnalyticsRows(events));
    // Where each table's held rows end now: a handoff that fails half way is cut back to it.
    const before = tables.map(({ name, table }) => {
      let held = this.#tables.get(table);
      if (held === undefined) {
        held = { table: name, bytes: new RowBinaryBuffer() };
        this.#tables.set(table, held);
      }
      return { held, length: held.bytes.length };
    });
    try {
      tables.forEach(({ name, rows }, index) => {
        const { bytes } = before[index]!.held;
        const { encode } = codecOf(name);
        for (const row of rows) encode(bytes, row as Readonly<Record<string, unknown>>);
      });
    } catch (error) {
      for (const { held, length } of before) held.bytes.truncate(length);
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
   * @throws whatever `insert` throws; the rows not yet written stay held.
   */
  insert(insert: RowBinaryInsert): number | undefined {
    for (const [qualified, { table, bytes }] of this.#tables) {
      if (bytes.length === 0) continue;
      const { columns, structure } = codecOf(table);
      insert(qualified, columns, structure, bytes.view());
      // The next rows start on the same buffer, unless a large batch grew it.
      if (bytes.capacity > keptBufferBytes) this.#tables.delete(qualified);
      else bytes.truncate(0);
    }
    this.#events = 0;
    if (this.#lastSeq === this.#insertedThrough) return undefined;
    this.#insertedThrough = this.#lastSeq;
    return this.#lastSeq;
  }
}
