/**
 * Messages between {@link ChdbExecutor} (main thread) and chdb-thread.ts (the thread that owns the
 * chDB session that writes), and between that thread and its reader (chdb-reader.ts, a second
 * session on the same folder that answers queries). Every request but an `events` handoff is
 * answered with its id: writes and commands in order, queries when the reader has them; held events
 * are reported by notices.
 */

export interface ChdbWorkerData {
  /** Folder the chDB session persists to. */
  readonly path: string;
  /** Absent: the thread that writes (chdb-thread.ts); `reader`: its reader (chdb-reader.ts). */
  readonly role?: 'reader';
  /** Held events that trigger an insert without waiting out the linger. */
  readonly insertAfterEvents: number;
  /** How long the first held event waits for company before an insert, in ms. */
  readonly lingerMs: number;
}

export type ChdbRequest =
  | { readonly id: number; readonly kind: 'command'; readonly sql: string }
  | { readonly id: number; readonly kind: 'query'; readonly sql: string }
  /** `sql` is the statement head (`INSERT INTO … FORMAT TabSeparated`); `data` the rows in that format. */
  | { readonly id: number; readonly kind: 'insert'; readonly sql: string; readonly data: string }
  /**
   * A handoff of events for the thread to map, batch and insert (`data`: the events as a JSON
   * array). Not answered by id: the thread sends `inserted` once they are in.
   */
  | { readonly id: number; readonly kind: 'events'; readonly seq: number; readonly database: string; readonly data: string }
  /** Insert every held event now; answered by id once they are in (or with the insert's error). */
  | { readonly id: number; readonly kind: 'flush' }
  | { readonly id: number; readonly kind: 'close' };

/** What the writing thread asks its reader: a query to answer (with a ChdbResponse), or to close its session and end. */
export type ChdbReaderRequest = { readonly id: number; readonly kind: 'query'; readonly sql: string } | { readonly kind: 'close' };

/** A serialisable engine error: Error objects lose their class crossing threads. */
export interface ChdbWorkerError {
  readonly name: string;
  readonly message: string;
}

/** An error in the form that crosses threads. */
export function workerErrorOf(error: unknown): ChdbWorkerError {
  return { name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error) };
}

export type ChdbResponse =
  | { readonly id: number; readonly ok: true; readonly rows: readonly unknown[] }
  | { readonly id: number; readonly ok: false; readonly error: ChdbWorkerError };

/** What the thread says unasked about held events. */
export type ChdbNotice =
  /** Every handoff up to `through` is inserted. */
  | { readonly kind: 'inserted'; readonly through: number }
  /** An insert of held events failed; the thread retries it after `retryMs`. */
  | { readonly kind: 'insert-failed'; readonly error: ChdbWorkerError; readonly heldEvents: number; readonly retryMs: number }
  /** The events of handoff `seq` could not be mapped to rows; they are passed over. */
  | { readonly kind: 'unmappable'; readonly error: ChdbWorkerError; readonly seq: number };

export type ChdbWorkerMessage = ChdbResponse | ChdbNotice;
