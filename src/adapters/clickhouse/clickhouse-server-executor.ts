import { Readable } from 'node:stream';
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { tabSeparatedInsertSql, toAnalyticsUnavailable, type ClickHouseExecutor } from './clickhouse-executor.js';

export interface ClickHouseServerExecutorOptions {
  /** HTTP(S) endpoint, e.g. http://127.0.0.1:8123 or https://host:8443 (config `clickhouseUrl`). */
  readonly url: string;
  readonly username?: string;
  readonly password?: string;
  /**
   * For an https:// URL whose certificate no system CA signed (CLICKHOUSE_TLS_CA_FILE), and a client
   * certificate for mutual TLS (CLICKHOUSE_TLS_CERT_FILE + CLICKHOUSE_TLS_KEY_FILE). PEM bytes.
   */
  readonly tls?: { readonly caCert: Buffer; readonly cert?: Buffer; readonly key?: Buffer } | undefined;
  /** Per-request timeout, ms. Default 30 s: the client's own default. */
  readonly requestTimeoutMs?: number;
  /**
   * Set when the tables are Distributed over replicated ones (config `clickhouseCluster`): inserts
   * then return only once the block is written on a replica of each shard (`insert_distributed_sync`,
   * not queued on this server), and a block identical to one already written (a retried insert) is
   * dropped by the replicated table (`insert_deduplicate`, 18.16's default, set explicitly).
   */
  readonly cluster?: string;
}

function clientTls(tls: NonNullable<ClickHouseServerExecutorOptions['tls']>): { ca_cert: Buffer; cert?: Buffer; key?: Buffer } {
  return tls.cert !== undefined && tls.key !== undefined ? { ca_cert: tls.caCert, cert: tls.cert, key: tls.key } : { ca_cert: tls.caCert };
}

/**
 * Executes analytics SQL on a ClickHouse server (18.16 and later) with @clickhouse/client.
 *
 * No default database is set on the connection: statements name their database, so the same
 * connection can create it during migrations. The client's own logger is off because every error
 * is rethrown (as `SY_ANALYTICS_UNAVAILABLE`) and logged once by whoever handles it.
 */
export class ClickHouseServerExecutor implements ClickHouseExecutor {
  readonly #client: ClickHouseClient;

  constructor(options: ClickHouseServerExecutorOptions) {
    this.#client = createClient({
      url: options.url,
      username: options.username ?? 'default',
      password: options.password ?? '',
      request_timeout: options.requestTimeoutMs ?? 30_000,
      ...(options.tls === undefined ? {} : { tls: clientTls(options.tls) }),
      // 18.16 quotes 64-bit integers in JSON by default; chDB does not. Both return numbers with this.
      clickhouse_settings: {
        output_format_json_quote_64bit_integers: 0,
        ...(options.cluster === undefined ? {} : { insert_distributed_sync: 1, insert_deduplicate: 1 }),
      },
      log: { level: ClickHouseLogLevel.OFF },
    });
  }

  async command(sql: string): Promise<void> {
    try {
      await this.#client.command({ query: sql });
    } catch (error) {
      throw toAnalyticsUnavailable(error, { engine: 'clickhouse', operation: 'command' });
    }
  }

  async query<T>(sql: string): Promise<T[]> {
    try {
      const result = await this.#client.query({ query: sql, format: 'JSONEachRow' });
      return await result.json<T>();
    } catch (error) {
      throw toAnalyticsUnavailable(error, { engine: 'clickhouse', operation: 'query' });
    }
  }

  async insertTabSeparated(table: string, columns: readonly string[], data: string): Promise<void> {
    tabSeparatedInsertSql(table, columns); // checks the names; the client writes the same statement head
    if (data === '') return;
    try {
      // A byte stream (not object mode) is sent as the request body as it is: no per-row encoding in the client.
      await this.#client.insert({
        table,
        columns: [columns[0]!, ...columns.slice(1)],
        format: 'TabSeparated',
        values: Readable.from([data], { objectMode: false }),
      });
    } catch (error) {
      throw toAnalyticsUnavailable(error, { engine: 'clickhouse', operation: 'insert' });
    }
  }

  async close(): Promise<void> {
    await this.#client.close();
  }
}

export function createClickHouseServerExecutor(options: ClickHouseServerExecutorOptions): ClickHouseExecutor {
  return new ClickHouseServerExecutor(options);
}
