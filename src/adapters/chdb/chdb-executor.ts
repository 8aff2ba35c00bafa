import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { EventEnvelope } from '../../events/event-envelope.js';
import { silentLogger, type Logger } from '../../logging/logger.js';
import { tabSeparatedInsertSql, toAnalyticsUnavailable, type ClickHouseExecutor } from '../clickhouse/clickhouse-executor.js';
import type { ChdbNotice, ChdbRequest, ChdbResponse, ChdbWorkerData, ChdbWorkerMessage } from './chdb-protocol.js';

export interface ChdbExecutorOptions {
  /** Folder the embedded database persists to (e.g. `<dataDir>/chdb`). */
  readonly path: string;
  /** Says when held analytics events fail to insert (and are retried) or are lost with the thread. */
  readonly logger?: Logger;
  /** Handed-off events held (sent, not yet inserted) past which handOff() waits. Default 100,000. */
  readonly maxHeldEvents?: number;
  /** Held events that make the thread insert at once. Default 60,000. */
  readonly insertAfterEvents?: number;
  /**
   * How long the thread lets the first held event wait for company before inserting, in ms. Default
   * 1,000: about one insert per table per second, as ClickHouse advises for MergeTree tables. Every
   * insert writes a new part of a dozen files and later merges it; at 500 ms a decision cost 90.0 µs
   * of CPU in all threads, at 1,000 83.6 (bench/README.md).
   */
  readonly lingerMs?: number;
}

/** A handoff the thread has not inserted yet; kept (as its JSON text) to re-send to a new thread. */
interface Handoff {
  readonly seq: number;
  readonly database: string;
  readonly data: string;
  readonly events: number;
}

type Pending = { readonly resolve: (rows: readonly unknown[]) => void; readonly reject: (error: Error) => void; readonly operation: string };

/** Under vitest the module runs from its .ts source; built, from dist/*.js. The worker sits beside it. */
const workerUrl = new URL(import.meta.url.endsWith('.ts') ? './chdb-worker.ts' : './chdb-worker.js', import.meta.url);

/**
 * Executes analytics SQL on embedded chDB, in a worker thread so that its synchronous native
 * queries never block the event loop. Requests carry ids; writes and commands are answered in order,
 * queries by the worker's reader thread as they finish (chdb-reader.ts), so a long one never holds up the inserts.
 *
 * A worker that dies fails its in-flight requests with a retryable `SY_ANALYTICS_UNAVAILABLE`; the
 * next request starts a new one on the same folder.
 *
 * @remarks chDB binds one data folder per process: open one ChdbExecutor per process (close it
 * before opening another). The worker is unref'd while idle so a forgotten executor never keeps the
 * process alive.
 */
export class ChdbExecutor implements ClickHouseExecutor {
  readonly #options: ChdbExecutorOptions;
  readonly #log: Logger;
  readonly #pending = new Map<number, Pending>();
  readonly #held: Handoff[] = [];
  #heldEvents = 0;
  #nextSeq = 1;
  #roomWaiters: (() => void)[] = [];
  #worker: Worker | undefined;
  #exited: Promise<void> | undefined;
  #nextId = 1;
  #closed = false;

  constructor(options: ChdbExecutorOptions) {
    this.#options = options;
    this.#log = options.logger ?? silentLogger;
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

  /**
   * Hands events to the thread, which maps, batches and inserts them (see AnalyticsHandoff). They
   * cross as one JSON text, so this thread neither maps them nor keeps their objects alive past the
   * young generation. JSON, not `v8.serialize`: events are JSON by contract (the Kafka bus carries
   * them so), and V8 writes and reads it faster (3.6 → 2.5 µs and 4.7 → 3.1 µs per decision's
   * two events, bench/README.md). The text is kept until the thread says the events are inserted,
   * and sent again to a new thread if this one dies first. Waits while more than `maxHeldEvents`
   * are held.
   */
  async handOff(database: string, events: readonly EventEnvelope[]): Promise<void> {
    if (events.length === 0) return;
    this.#assertOpen('handoff');
    const handoff: Handoff = { seq: this.#nextSeq++, database, data: JSON.stringify(events), events: events.length };
    this.#held.push(handoff);
    this.#heldEvents += handoff.events;
    this.#post(this.#ensureWorker(), handoff);
    while (this.#heldEvents > (this.#options.maxHeldEvents ?? 100_000) && !this.#closed) {
      await new Promise<void>((resolve) => this.#roomWaiters.push(resolve));
    }
  }

  /** Resolves when every event handed off so far is inserted; rejects with the insert's error (they stay held). */
  async flushHandoffs(): Promise<void> {
    if (this.#held.length === 0) return;
    await this.#send({ id: 0, kind: 'flush' }, 'flush');
  }

  /** Closes the chDB session (the thread tries once more to insert what it holds) and waits for the thread to end. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#releaseRoomWaiters();
    const worker = this.#worker;
    if (worker === undefined) return;
    const exited = this.#exited;
    const id = this.#nextId++;
    const closed = new Promise<readonly unknown[]>((resolve, reject) => this.#pending.set(id, { resolve, reject, operation: 'close' }));
    worker.ref();
    worker.postMessage({ id, kind: 'close' } satisfies ChdbRequest);
    await closed;
    await exited;
    if (this.#heldEvents > 0) this.#log.error({ events: this.#heldEvents }, 'analytics events handed to chDB were not inserted before it closed');
  }

  #assertOpen(operation: string): void {
    if (this.#closed) {
      throw new SwitchyardError('SY_ANALYTICS_UNAVAILABLE', { message: 'The chDB analytics store is closed', details: { engine: 'chdb', operation } });
    }
  }

  #post(worker: Worker, handoff: Handoff): void {
    // A copy (strings cannot be transferred): the text stays here until the thread has inserted it.
    worker.postMessage({ id: 0, kind: 'events', seq: handoff.seq, database: handoff.database, data: handoff.data } satisfies ChdbRequest);
  }

  async #send(request: ChdbRequest, operation: string): Promise<readonly unknown[]> {
    this.#assertOpen(operation);
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
    const workerData: ChdbWorkerData = {
      path: this.#options.path,
      insertAfterEvents: this.#options.insertAfterEvents ?? 60_000,
      lingerMs: this.#options.lingerMs ?? 1000,
    };
    const worker = new Worker(workerUrl, { workerData });
    worker.unref();
    worker.on('message', (message: ChdbWorkerMessage) => ('id' in message ? this.#settle(message) : this.#notice(message)));
    worker.on('error', (error) => this.#failAll(error));
    this.#exited = new Promise((resolve) => {
      worker.once('exit', (code) => {
        if (this.#worker === worker) this.#worker = undefined;
        this.#failAll(new Error(`chDB worker exited with code ${code}`));
        if (this.#held.length > 0 && !this.#closed) {
          // What the dead thread held is still here: a new thread gets all of it, in order.
          this.#log.warn({ code, events: this.#heldEvents }, 'chDB thread exited holding analytics events; handing them to a new one');
          const next = this.#ensureWorker();
          for (const handoff of this.#held) this.#post(next, handoff);
        }
        resolve();
      });
    });
    this.#worker = worker;
    return worker;
  }

  #notice(notice: ChdbNotice): void {
    switch (notice.kind) {
      case 'inserted': {
        while (this.#held[0] !== undefined && this.#held[0].seq <= notice.through) this.#heldEvents -= this.#held.shift()!.events;
        this.#releaseRoomWaiters();
        return;
      }
      case 'insert-failed':
        this.#log.warn(
          { err: notice.error, heldEvents: notice.heldEvents, retryMs: notice.retryMs },
          'analytics insert into chDB failed; the events stay held and are retried',
        );
        return;
      case 'unmappable':
        this.#log.error({ err: notice.error, seq: notice.seq }, 'analytics events could not be mapped to rows; passed over');
        return;
    }
  }

  #releaseRoomWaiters(): void {
    const waiters = this.#roomWaiters;
    this.#roomWaiters = [];
    for (const wake of waiters) wake();
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
