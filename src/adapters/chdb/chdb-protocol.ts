/**
 * Messages between {@link ChdbExecutor} (main thread) and chdb-worker.ts (the thread that owns the
 * chDB session). Every request carries an id; the worker answers each with the same id, in order.
 * Only types live here: the worker imports them with `import type`, which Node's type stripping
 * erases, so the worker runs from its .ts source under vitest without a build step.
 */

export interface ChdbWorkerData {
  /** Folder the chDB session persists to. */
  readonly path: string;
}

export type ChdbRequest =
  | { readonly id: number; readonly kind: 'command'; readonly sql: string }
  | { readonly id: number; readonly kind: 'query'; readonly sql: string }
  /** `sql` is the statement head (`INSERT INTO … FORMAT TabSeparated`); `data` the rows in that format. */
  | { readonly id: number; readonly kind: 'insert'; readonly sql: string; readonly data: string }
  | { readonly id: number; readonly kind: 'close' };

/** A serialisable engine error: Error objects lose their class crossing threads. */
export interface ChdbWorkerError {
  readonly name: string;
  readonly message: string;
}

export type ChdbResponse =
  | { readonly id: number; readonly ok: true; readonly rows: readonly unknown[] }
  | { readonly id: number; readonly ok: false; readonly error: ChdbWorkerError };
