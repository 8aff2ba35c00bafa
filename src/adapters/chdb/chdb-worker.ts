/**
 * Worker-thread entry that owns the chDB session. chDB queries are synchronous native calls, so
 * they run here, off the API's event loop; requests are handled one at a time, in arrival order.
 *
 * Kept free of runtime imports from this project (types only): under vitest it is loaded from its
 * .ts source by Node's type stripping, which does not map `.js` specifiers to `.ts` files.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Session } from 'chdb';
import type { ChdbRequest, ChdbResponse, ChdbWorkerData } from './chdb-protocol.js';

const port = parentPort;
if (port === null) throw new Error('chdb-worker must run in a worker thread');
const { path } = workerData as ChdbWorkerData;

let session: Session | undefined;
let openError: unknown;
try {
  session = new Session(path);
  // chDB already answers 64-bit integers as JSON numbers; set it anyway so both engines run alike.
  session.query('SET output_format_json_quote_64bit_integers = 0');
} catch (error) {
  openError = error;
}

function handle(request: ChdbRequest): readonly unknown[] {
  if (request.kind === 'close') {
    session?.close();
    session = undefined;
    return [];
  }
  if (session === undefined) throw openError ?? new Error('chDB session is closed');
  switch (request.kind) {
    case 'command':
      session.query(request.sql);
      return [];
    case 'query':
      return parseJsonEachRow(session.query(request.sql, 'JSONEachRow'));
    case 'insert':
      // The text after FORMAT is parsed as TabSeparated data, never as SQL (escaped by encodeTabSeparated).
      session.query(`${request.sql}\n${request.data}`);
      return [];
  }
}

function parseJsonEachRow(text: string): unknown[] {
  const rows: unknown[] = [];
  for (const line of text.split('\n')) if (line !== '') rows.push(JSON.parse(line));
  return rows;
}

port.on('message', (request: ChdbRequest) => {
  let response: ChdbResponse;
  try {
    response = { id: request.id, ok: true, rows: handle(request) };
  } catch (error) {
    const name = error instanceof Error ? error.name : 'Error';
    const message = error instanceof Error ? error.message : String(error);
    response = { id: request.id, ok: false, error: { name, message } };
  }
  port.postMessage(response);
  if (request.kind === 'close') port.close();
});
