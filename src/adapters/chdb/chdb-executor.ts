import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import { tabSeparatedInsertSql, toAnalyticsUnavailable, type ClickHouseExecutor } from '../clickhouse/clickhouse-executor.js';
import type { ChdbRequest, ChdbResponse, ChdbWorkerData } from './chdb-protocol.js';

export interface ChdbExecutorOptions {
  /** Folder the embedded database persists to (e.g. `<dataDir>/chdb`). */
  readonly path: string;
}

type Pending = { readonly resolve: (rows: readonly unknown[]) => void; readonly reject: (error: Error) => void; readonly operation: string };

/** Under vitest the module runs from its .ts source; built, from dist/*.js. The worker sits beside it. */
const workerUrl = new URL(import.meta.url.endsWith('.ts') ? './chdb-worker.ts' : './chdb-worker.js', import.meta.url);

/**
 * Executes analytics SQL on embedded chDB, in a worker thread so that its synchronous native
 * queries never block the event loop. Requests carry ids and are answered in order by the worker.
 *
 * A worker that dies fails its in-flight requests with a retryable `SY_ANALYTICS_UNAVAILABLE`; the
 * next request starts a new one on the same folder.
 *
 * @remarks chDB binds one data folder per process: open one ChdbExecutor per process (close it
 * before opening another). The worker is unref'd while idle so a forgotten executor never keeps the
 * process alive.
 */
export class ChdbExecutor implements ClickHouseExecutor {
  readonly #path: string;
  readonly #pending = new Map<number, Pending>();
  #worker: Worker | undefined;
  #exited: Promise<void> | undefined;
  #nextId = 1;
  #closed = false;

  constructor(options: ChdbExecutorOptions) {
    this.#path = options.path;
  }

  async command(sql: string): Promise<void> {
    await this.#send({ id: 0, kind: 'command', sql }, 'command');
  }

  async query<T>(sql: string): Promise<T[]> {
    return (await this.#send({ id: 0, kind: 'query', sql }, 'query')) as T[];
  }

  /**
   * The text crosses to the worker thread as one string (a copy, far cheaper than cloning row
   * objects), and chDB parses it there, off this thread's event loop.
   */
  async insertTabSeparated(table: string, columns: readonly string[], data: string): Promise<void> {
    const sql = tabSeparatedInsertSql(table, columns);
    if (data === '') return;
    await this.#send({ id: 0, kind: 'insert', sql, data }, 'insert');
  }

  /** Closes the chDB session and waits for the worker thread to end. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const worker = this.#worker;
    if (worker === undefined) return;
    const exited = this.#exited;
    const id = this.#nextId++;
    const closed = new Promise<readonly unknown[]>((resolve, reject) => this.#pending.set(id, { resolve, reject, operation: 'close' }));
    worker.ref();
    worker.postMessage({ id, kind: 'close' } satisfies ChdbRequest);
    await closed;
    await exited;
  }

  #send(request: ChdbRequest, operation: string): Promise<readonly unknown[]> {
    if (this.#closed) {
      return Promise.reject(
        new SwitchyardError('SY_ANALYTICS_UNAVAILABLE', { message: 'The chDB analytics store is closed', details: { engine: 'chdb', operation } }),
      );
    }
    const worker = this.#ensureWorker();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) worker.ref();
      this.#pending.set(id, { resolve, reject, operation });
      worker.postMessage({ ...request, id });
    });
  }

  #ensureWorker(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    // Keep the native addon loaded in this thread too: when only the worker had loaded it, the
    // worker's teardown unloads it and the process crashes (chdb 3.4.0, Node 24). Loading is cheap;
    // no query ever runs here.
    createRequire(import.meta.url)('chdb');
    const worker = new Worker(workerUrl, { workerData: { path: this.#path } satisfies ChdbWorkerData });
    worker.unref();
    worker.on('message', (response: ChdbResponse) => this.#settle(response));
    worker.on('error', (error) => this.#failAll(error));
    this.#exited = new Promise((resolve) => {
      worker.once('exit', (code) => {
        if (this.#worker === worker) this.#worker = undefined;
        this.#failAll(new Error(`chDB worker exited with code ${code}`));
        resolve();
      });
    });
    this.#worker = worker;
    return worker;
  }

  #settle(response: ChdbResponse): void {
    const pending = this.#pending.get(response.id);
    if (pending === undefined) return;
    this.#pending.delete(response.id);
    // While closing, stay ref'd until the worker has exited, so close() can be awaited to the end.
    if (this.#pending.size === 0 && !this.#closed) this.#worker?.unref();
    if (response.ok) pending.resolve(response.rows);
    else {
      const cause = Object.assign(new Error(response.error.message), { name: response.error.name });
      pending.reject(toAnalyticsUnavailable(cause, { engine: 'chdb', operation: pending.operation, retryable: false }));
    }
  }

  /** The worker is gone: nothing in flight will be answered. A retry may succeed on a new worker. */
  #failAll(cause: unknown): void {
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      pending.reject(toAnalyticsUnavailable(cause, { engine: 'chdb', operation: pending.operation, retryable: true }));
    }
  }
}

export function createChdbExecutor(options: ChdbExecutorOptions): ClickHouseExecutor {
  return new ChdbExecutor(options);
}
