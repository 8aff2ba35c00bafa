/**
 * The chDB reader thread: answers analytics queries on a second session of the same folder, one at a
 * time, in arrival order. Started by the thread that writes (chdb-thread.ts), so that a long query (a
 * dashboard's, the experiment guardrail's over millions of rows) never holds up its inserts: with both
 * on one session, a query of several seconds under load held every handoff behind it, until the
 * executor's bound made the analytics sink wait and the event bus's bound made the API wait too. chDB
 * sessions on one folder share one engine, which runs a query and an insert side by side. Started
 * from a thread already below the API's priority, it runs there too (and lowers its own in the entry).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Session } from 'chdb';
import { openAnalyticsSession } from './chdb-session.js';
import { type ChdbReaderRequest, type ChdbResponse, type ChdbWorkerData, workerErrorOf } from './chdb-protocol.js';

const port = parentPort;
if (port === null) throw new Error('chdb-reader must run in a worker thread');
const { path } = workerData as ChdbWorkerData;

let session: Session | undefined;
let openError: unknown;
try {
  session = openAnalyticsSession(path);
} catch (error) {
  openError = error;
}

/** The rows of a JSONEachRow answer. */
function parseJsonEachRow(text: string): unknown[] {
  const rows: unknown[] = [];
  for (const line of text.split('\n')) if (line !== '') rows.push(JSON.parse(line));
  return rows;
}

function answer(request: Extract<ChdbReaderRequest, { kind: 'query' }>): ChdbResponse {
  try {
    if (session === undefined) throw openError ?? new Error('chDB reader session is closed');
    return { id: request.id, ok: true, rows: parseJsonEachRow(session.query(request.sql, 'JSONEachRow')) };
  } catch (error) {
    return { id: request.id, ok: false, error: workerErrorOf(error) };
  }
}

port.on('message', (request: ChdbReaderRequest) => {
  if (request.kind === 'close') {
    // No query is running: this thread answers one message at a time.
    session?.close();
    session = undefined;
    port.close();
    return;
  }
  port.postMessage(answer(request));
});
