import { mapEventsToAnalyticsRows } from '../../analytics/map-event-to-rows.js';
import type { EventEnvelope } from '../../events/event-envelope.js';
import { columnNames } from '../clickhouse/analytics-insert-columns.js';
import { rowsByTable } from '../clickhouse/analytics-tables.js';
import { tabSeparatedInsertSql } from '../clickhouse/clickhouse-executor.js';
import { encodeTabSeparated } from '../clickhouse/encode-tab-separated.js';

/**
 * Events handed to the chDB thread, held as encoded rows until their insert: mapped and encoded as
 * they arrive (spread over time, not in one burst per insert), written as one insert per table.
 * Handoffs are numbered; `insert` answers the last number it covers, so the sender can let go of
 * everything up to it.
 */
export class HeldAnalytics {
  /** Encoded rows per insert statement (one per table), in arrival order. */
  readonly #chunks = new Map<string, string[]>();
  #events = 0;
  #lastSeq = 0;
  #insertedThrough = 0;

  /** Events held, not yet inserted. */
  get events(): number {
    return this.#events;
  }

  /**
   * Maps and encodes a handoff's events and holds them. Events that cannot be mapped (a bug: they
   * were validated when published) throw, and the whole handoff is passed over: holding it would
   * only fail every insert after it.
   */
  add(seq: number, database: string, events: readonly EventEnvelope[]): void {
    this.#lastSeq = seq;
    const encoded = rowsByTable(database, mapEventsToAnalyticsRows(events)).map(({ table, columns, rows }) => ({
      sql: tabSeparatedInsertSql(table, columnNames(columns)),
      text: encodeTabSeparated(columns, rows),
    }));
    for (const { sql, text } of encoded) {
      let chunks = this.#chunks.get(sql);
      if (chunks === undefined) {
        chunks = [];
        this.#chunks.set(sql, chunks);
      }
      chunks.push(text);
    }
    this.#events += events.length;
  }

  /**
   * Inserts everything held, one statement per table. A table's rows are let go as soon as its
   * insert returns, so after a failure a retry sends only the tables still held (a table written
   * twice would be harmless anyway: reads de-duplicate by event id).
   *
   * @returns the number of the last handoff now done with, or undefined when none is new.
   * @throws whatever `run` throws; the rows not yet written stay held.
   */
  insert(run: (statement: string) => void): number | undefined {
    for (const [sql, chunks] of this.#chunks) {
      run(`${sql}\n${chunks.join('')}`);
      this.#chunks.delete(sql);
    }
    this.#events = 0;
    if (this.#lastSeq === this.#insertedThrough) return undefined;
    this.#insertedThrough = this.#lastSeq;
    return this.#lastSeq;
  }
}
