/**
 * The chDB worker thread: owns the chDB session. chDB queries are synchronous native calls, so they
 * run here, off the API's event loop; requests are handled one at a time, in arrival order. Events
 * handed off for analytics are mapped and encoded (as RowBinary) on arrival and inserted in batches (see
 * {@link HeldAnalytics}); a failed insert is retried with a growing pause until it succeeds.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { Session } from 'chdb';
import type { EventEnvelope } from '../../events/event-envelope.js';
import { quoteString } from '../clickhouse/bind-sql.js';
import { columnNames } from '../clickhouse/analytics-insert-columns.js';
import { assertInsertTarget } from '../clickhouse/clickhouse-executor.js';
import type { ChdbRequest, ChdbWorkerData, ChdbWorkerError, ChdbWorkerMessage } from './chdb-protocol.js';
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
  session = new Session(path);
  // chDB already answers 64-bit integers as JSON numbers; set it anyway so both engines run alike.
  session.query('SET output_format_json_quote_64bit_integers = 0');
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

function errorOf(error: unknown): ChdbWorkerError {
  return { name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error) };
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
    send({ kind: 'insert-failed', error: errorOf(error), heldEvents: held.events, retryMs });
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

function handle(request: Exclude<ChdbRequest, { kind: 'events' }>): readonly unknown[] {
  switch (request.kind) {
    case 'close':
      tryInsertHeld();
      session?.close();
      session = undefined;
      clearTimeout(insertTimer);
      return [];
    case 'command':
      openSession().query(request.sql);
      return [];
    case 'query':
      return parseJsonEachRow(openSession().query(request.sql, 'JSONEachRow'));
    case 'insert':
      // The text after FORMAT is parsed as TabSeparated data, never as SQL (escaped by encodeTabSeparated).
      openSession().query(`${request.sql}\n${request.data}`);
      return [];
    case 'flush':
      insertHeld();
      return [];
  }
}

function parseJsonEachRow(text: string): unknown[] {
  const rows: unknown[] = [];
  for (const line of text.split('\n')) if (line !== '') rows.push(JSON.parse(line));
  return rows;
}

port.on('message', (request: ChdbRequest) => {
  if (request.kind === 'events') {
    try {
      held.add(request.seq, request.database, JSON.parse(request.data) as EventEnvelope[]);
    } catch (error) {
      send({ kind: 'unmappable', error: errorOf(error), seq: request.seq });
    }
    // While inserts fail, only the retry timer tries again (not every handoff).
    if (held.events >= insertAfterEvents && failedInserts === 0) tryInsertHeld();
    else scheduleInsert(lingerMs);
    return;
  }
  try {
    send({ id: request.id, ok: true, rows: handle(request) });
  } catch (error) {
    send({ id: request.id, ok: false, error: errorOf(error) });
  }
  if (request.kind === 'close') port.close();
});
