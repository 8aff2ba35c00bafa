import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One INSERT into analytics_domain_events that went through the proxy. */
export interface ProxiedInsert {
  readonly eventIds: readonly string[];
  /** True for the insert whose answer was held back (the sink never learned it succeeded). */
  readonly held: boolean;
}

/**
 * An HTTP pass-through in front of the real ClickHouse server, for the sink-kill fault test: it
 * records the event ids of every analytics_domain_events insert and, once armed, lets the next
 * insert carrying a decision reach ClickHouse but holds its answer back. The rows are then stored
 * while the sink is still waiting, so its offsets are not committed: a SIGKILL at that moment is a
 * kill in the middle of a batch, every time, not by luck of timing.
 */
export interface ClickHouseProxy {
  /** Use as the child's CLICKHOUSE_URL. */
  readonly url: string;
  readonly inserts: ProxiedInsert[];
  /** Arms the hold; resolves with the held insert's event ids once ClickHouse has stored them. */
  holdNextDecisionInsert(): Promise<readonly string[]>;
  close(): Promise<void>;
}

const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

function forwardableHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !hopByHop.has(name)) out[name] = value;
  }
  return out;
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}

/**
 * The event ids of an insert body, in the format its statement names: TabSeparated (the sink's,
 * `INSERT INTO t (a, b, …) FORMAT TabSeparated`, one row per line, `event_id` at its column's
 * place) or JSONEachRow.
 */
function eventIdsOf(body: Buffer, encoding: string | undefined, query: string): string[] {
  const text = (encoding === 'gzip' ? gunzipSync(body) : body).toString('utf8');
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const statement = /\(([^)]*)\)\s*FORMAT\s+(\w+)/i.exec(query);
  if (statement !== null && statement[2]?.toLowerCase() === 'tabseparated') {
    const column = (statement[1] ?? '')
      .split(',')
      .map((name) => name.trim().replace(/^`|`$/g, ''))
      .indexOf('event_id');
    if (column < 0) throw new Error(`insert without event_id: ${query}`);
    return lines.map((line) => line.split('\t')[column] ?? '');
  }
  return lines.map((line) => String((JSON.parse(line) as { event_id: unknown }).event_id));
}

export async function startClickHouseProxy(target: string): Promise<ClickHouseProxy> {
  const upstream = new URL(target);
  const inserts: ProxiedInsert[] = [];
  let armed: ((eventIds: readonly string[]) => void) | undefined;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readAll(request);
    const query = new URL(request.url ?? '/', 'http://proxy').searchParams.get('query') ?? '';
    const isDomainInsert = /^\s*INSERT INTO \S*analytics_domain_events\b/i.test(query);
    const answer = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          hostname: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path: request.url,
          headers: { ...forwardableHeaders(request.headers), 'content-length': String(body.length) },
        },
        (reply) => {
          readAll(reply).then((replyBody) => resolve({ status: reply.statusCode ?? 502, headers: reply.headers, body: replyBody }), reject);
        },
      );
      outgoing.once('error', reject);
      outgoing.end(body);
    });
    if (isDomainInsert && answer.status === 200) {
      const eventIds = eventIdsOf(body, request.headers['content-encoding'], query);
      const hold = armed !== undefined && body.includes(Buffer.from('decide_gateway_decision'));
      inserts.push({ eventIds, held: hold });
      if (hold) {
        const release = armed!;
        armed = undefined;
        // Stored in ClickHouse; the sink is left waiting on this socket until it dies.
        release(eventIds);
        return;
      }
    }
    response.writeHead(answer.status, { ...forwardableHeaders(answer.headers), 'content-length': String(answer.body.length) });
    response.end(answer.body);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // The test sees this as a failed insert in the sink's log and a 502 here.
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(error instanceof Error ? error.message : String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    inserts,
    holdNextDecisionInsert() {
      return new Promise((resolve) => {
        armed = resolve;
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error))));
    },
  };
}
