/**
 * The chDB worker thread: owns the chDB session that writes. chDB calls are synchronous native calls,
 * so they run here, off the API's event loop; writes and commands are handled one at a time, in
 * arrival order. Events handed off for analytics are mapped and encoded (as RowBinary) on arrival and
 * inserted in batches (see {@link HeldAnalytics}); a failed insert is retried with a growing pause
 * until it succeeds. Queries go to a reader thread with a session of its own (chdb-reader.ts), so a
 * long one never holds up the inserts; a query sent after a write or flush still sees it, since the
 * write is done before the query is passed on.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { Session } from 'chdb';
import type { EventEnvelope } from '../../events/event-envelope.js';
import { quoteString } from '../clickhouse/bind-sql.js';
import { columnNames } from '../clickhouse/analytics-insert-columns.js';
import { assertInsertTarget } from '../clickhouse/clickhouse-executor.js';
import {
  type ChdbReaderRequest,
  type ChdbRequest,
  type ChdbResponse,
  type ChdbWorkerData,
  type ChdbWorkerError,
  type ChdbWorkerMessage,
  workerErrorOf,
} from './chdb-protocol.js';
import { openAnalyticsSession } from './chdb-session.js';
import { HeldAnalytics, type RowBinaryInsert } from './held-analytics.js';

const port = parentPort;
if (port === null) throw new Error('chdb-thread must run in a worker thread');
const { path, insertAfterEvents, lingerMs } = workerData as ChdbWorkerData;
const firstRetryMs = 500;
const maxRetryMs = 30_000;

/**
 * Held rows reach chDB as RowBinary through a file: chDB takes data inline only as query text, which
 * binary bytes cannot be, and its `file()` reads any absolute path. The file is ours (one per table, in
 * a folder of the session's own, made with the session) and is removed once inserted.
 */
const stagingDir = join(resolve(path), 'insert-staging');

let session: Session | undefined;
let openError: unknown;
try {
  session = openAnalyticsSession(path);
  mkdirSync(stagingDir, { recursive: true });
} catch (error) {
  openError = error;
}

const insertRowBinary: RowBinaryInsert = (table, columns, structure, bytes) => {
  const names = columnNames(columns);
  assertInsertTarget(table, names);
  const file = join(stagingDir, `${table}.rowbinary`);
  writeFileSync(file, bytes);
  try {
    openSession().query(`INSERT INTO ${table} (${names.join(', ')}) SELECT * FROM file(${quoteString(file)}, 'RowBinary', ${quoteString(structure)})`);
  } finally {
    rmSync(file, { force: true });
  }
};

const held = new HeldAnalytics();
let insertTimer: NodeJS.Timeout | undefined;
let failedInserts = 0;

const send = (message: ChdbWorkerMessage) => port.postMessage(message);

function openSession(): Session {
  if (session === undefined) throw openError ?? new Error('chDB session is closed');
  return session;
}

/** The reader thread (started with the first query) and the ids of the queries it has not answered. */
let reader: Worker | undefined;
const reading = new Set<number>();

function ensureReader(): Worker {
  if (reader !== undefined) return reader;
  const started = new Worker(new URL(import.meta.url.endsWith('.ts') ? './chdb-worker.ts' : './chdb-worker.js', import.meta.url), {
    workerData: { ...(workerData as ChdbWorkerData), role: 'reader' } satisfies ChdbWorkerData,
  });
  started.on('message', (response: ChdbResponse) => {
    reading.delete(response.id);
    send(response);
  });
  // A reader that dies fails the queries it held; the next query starts another.
  const failReads = (error: ChdbWorkerError): void => {
    if (reader === started) reader = undefined;
    for (const id of reading) send({ id, ok: false, error });
    reading.clear();
  };
  started.on('error', (error) => failReads(workerErrorOf(error)));
  started.on('exit', (code) => failReads({ name: 'Error', message: `chDB reader thread exited with code ${code}` }));
  reader = started;
  return started;
}

function read(id: number, sql: string): void {
  reading.add(id);
  ensureReader().postMessage({ id, kind: 'query', sql } satisfies ChdbReaderRequest);
}

/** Ends the reader once it has answered what it holds (its session must close before the writing one). */
async function closeReader(): Promise<void> {
  const closing = reader;
  if (closing === undefined) return;
  const exited = once(closing, 'exit');
  closing.postMessage({ kind: 'close' } satisfies ChdbReaderRequest);
  await exited;
}

function scheduleInsert(delayMs: number): void {
  // tryInsertHeld, not insertHeld: an error thrown from a timer would end the thread.
  insertTimer ??= setTimeout(tryInsertHeld, delayMs);
}

/** Inserts the held events; on failure keeps them, says so, and tries again later. */
function insertHeld(): void {
  clearTimeout(insertTimer);
  insertTimer = undefined;
  try {
    const through = held.insert(insertRowBinary);
    failedInserts = 0;
    if (through !== undefined) send({ kind: 'inserted', through });
  } catch (error) {
    failedInserts++;
    const retryMs = Math.min(maxRetryMs, firstRetryMs * 2 ** (failedInserts - 1));
    send({ kind: 'insert-failed', error: workerErrorOf(error), heldEvents: held.events, retryMs });
    scheduleInsert(retryMs);
    throw error;
  }
}

/** Whether the held events went in; a failure is reported by insertHeld and retried by its timer (a throw here would end the thread). */
function tryInsertHeld(): boolean {
  try {
    insertHeld();
    return true;
  } catch {
    return false;
  }
}

/**
 * Inserts what is held, closes the reader, then this session, answers, and ends the thread. In that
 * order: once the reader's session is closed, an insert on this one never returns (chdb 3.4.0).
 */
async function close(id: number): Promise<void> {
  tryInsertHeld();
  await closeReader();
  session?.close();
  session = undefined;
  clearTimeout(insertTimer);
  send({ id, ok: true, rows: [] });
  port?.close();
}

function handle(request: Exclude<ChdbRequest, { kind: 'events' | 'query' | 'close' }>): readonly unknown[] {
  switch (request.kind) {
    case 'command':
      openSession().query(request.sql);
      return [];
    case 'insert':
      // The text after FORMAT is parsed as TabSeparated data, never as SQL (escaped by encodeTabSeparated).
      openSession().query(`${request.sql}\n${request.data}`);
      return [];
    case 'flush':
      insertHeld();
      return [];
  }
}

port.on('message', (request: ChdbRequest) => {
  if (request.kind === 'events') {
    try {
      held.add(request.seq, request.database, JSON.parse(request.data) as EventEnvelope[]);
    } catch (error) {
      send({ kind: 'unmappable', error: workerErrorOf(error), seq: request.seq });
    }
    // While inserts fail, only the retry timer tries again (not every handoff).
    if (held.events >= insertAfterEvents && failedInserts === 0) tryInsertHeld();
    else scheduleInsert(lingerMs);
    return;
  }
  if (request.kind === 'query') return read(request.id, request.sql);
  if (request.kind === 'close') return void close(request.id);
  try {
    send({ id: request.id, ok: true, rows: handle(request) });
  } catch (error) {
    send({ id: request.id, ok: false, error: workerErrorOf(error) });
  }
});
