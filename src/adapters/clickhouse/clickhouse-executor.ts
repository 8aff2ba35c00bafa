import { SwitchyardError } from '../../errors/switchyard-error.js';

/**
 * The three things the analytics store asks of a ClickHouse engine, so the same store (and the
 * same SQL) runs on ClickHouse server over HTTP and on chDB inside a worker thread.
 *
 * SQL handed in is complete: values were bound by `bindSql`; executors never add values.
 * Every failure is a SwitchyardError `SY_ANALYTICS_UNAVAILABLE` with the engine error as `cause`.
 */
export interface ClickHouseExecutor {
  /** Runs a statement that returns nothing (DDL, ALTER). */
  command(sql: string): Promise<void>;
  /**
   * Runs a SELECT and returns its rows (JSONEachRow). 64-bit integers come back as numbers
   * (output_format_json_quote_64bit_integers=0 on both engines).
   */
  query<T>(sql: string): Promise<T[]>;
  /**
   * Inserts into `table` (`database.table`) the rows of `data`: `TabSeparated` text from
   * `encodeTabSeparated`, one line per row, values in the order of `columns`. Empty data inserts nothing.
   */
  insertTabSeparated(table: string, columns: readonly string[], data: string): Promise<void>;
  close(): Promise<void>;
}

/** Which engine an error came from, for logs. */
export type ClickHouseEngine = 'clickhouse' | 'chdb';

/**
 * Node system error codes that mean the engine could not be reached (or went away mid-call):
 * worth retrying. Anything else is the engine refusing the statement, which a retry won't change.
 */
const unreachableCodes: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
]);

/** The one mapping from engine/client errors to ours, used by both executors. */
export function toAnalyticsUnavailable(
  cause: unknown,
  context: { readonly engine: ClickHouseEngine; readonly operation: string; readonly retryable?: boolean },
): SwitchyardError {
  if (SwitchyardError.isInstance(cause)) return cause;
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  const isRetryable = context.retryable ?? (typeof code === 'string' && unreachableCodes.has(code));
  return new SwitchyardError('SY_ANALYTICS_UNAVAILABLE', {
    cause,
    isRetryable,
    details: { engine: context.engine, operation: context.operation },
  });
}

const tablePattern = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;
const columnPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Insert targets and columns are our own names; anything else is a bug, never SQL text. Without
 * `columns`, checks the table name alone.
 */
export function assertInsertTarget(table: string, columns?: readonly string[]): void {
  const columnsValid = columns === undefined || (columns.length > 0 && columns.every((column) => columnPattern.test(column)));
  if (!tablePattern.test(table) || !columnsValid) {
    throw new SwitchyardError('SY_INTERNAL', { message: 'Invalid analytics table or column name', details: { table, columns } });
  }
}

/** The statement head both engines take: `INSERT INTO db.table (a, b) FORMAT TabSeparated`. */
export function tabSeparatedInsertSql(table: string, columns: readonly string[]): string {
  assertInsertTarget(table, columns);
  return `INSERT INTO ${table} (${columns.join(', ')}) FORMAT TabSeparated`;
}
