import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChdbExecutor } from '../../src/adapters/chdb/chdb-executor.js';
import { createClickHouseAnalyticsStore } from '../../src/adapters/clickhouse/clickhouse-analytics-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import type { AnalyticsStore } from '../../src/ports/analytics-store.js';
import type { EventBus } from '../../src/ports/event-bus.js';
import type { Clock } from '../../src/time/clock.js';
import * as analyticsSink from '../../workers/analytics-sink.js';
import type { WorkerHandle } from '../../workers/worker-handle.js';

/**
 * The embedded analytics store (chDB, migrated, in a database of its own) and the analytics sink
 * that fills it from a test app's bus: what every contract test of an /analytics/* read needs, set
 * up in one place so the close order (sink, app, store) is written once.
 */
export interface ChdbAnalyticsUnderTest {
  /** Hand it to `createTestApp({ analytics })`; tests may also read it directly. */
  readonly store: AnalyticsStore;
  /**
   * Starts the analytics sink on `bus` (once). Defaults: 30 days of retention, and no linger, so a
   * batch is written as soon as it arrives (`caughtUp()` needs no wait on a timer).
   */
  startSink(bus: EventBus, clock: Clock, options?: { retentionDays?: number; lingerMs?: number }): Promise<WorkerHandle>;
  /** Resolves once the sink has written every event published before the call. */
  caughtUp(): Promise<void>;
  /**
   * Closes the sink, then `app` (the sink reads its bus, so it must leave first), then drops the
   * store's database. Safe after a set-up that failed half way.
   */
  close(app?: { close(): Promise<void> }): Promise<void>;
}

/** Where this process's chDB folder goes: `sytest-chdb-<pid>` under the system's temporary folder. */
const folderPrefix = 'sytest-chdb-';

/**
 * This process's chDB folder, made by the first store. chDB binds one data folder per process, so
 * the files that share a process (the contract project's threads) share the folder, each with an
 * executor and a database of its own; a file no longer needs a process to itself for chDB
 * (vitest.config.ts). The folder outlives the process (a store open at exit would crash chDB's
 * engine) and is removed by a later run once the process has ended.
 */
function processFolder(): string {
  const path = join(tmpdir(), `${folderPrefix}${process.pid}`);
  if (!existsSync(path)) {
    removeFoldersOfEndedProcesses();
    mkdirSync(path, { recursive: true });
  }
  return path;
}

function removeFoldersOfEndedProcesses(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(folderPrefix)) continue;
    const pid = Number(name.slice(folderPrefix.length));
    if (Number.isInteger(pid) && pid !== process.pid && !isRunning(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A migrated chDB store in a new database named `sytest_<name>_…`; the sink is started separately, once the app's bus exists. */
export async function openChdbAnalytics(name: string): Promise<ChdbAnalyticsUnderTest> {
  const database = `sytest_${name.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  const executor = new ChdbExecutor({ path: processFolder(), logger: silentLogger });
  const engine = createClickHouseAnalyticsStore(executor, { database });
  // Closing (once: the app may close it too) drops the file's database, then closes its executor;
  // the folder stays (see above).
  let closed: Promise<void> | undefined;
  const dropAndClose = async () => {
    try {
      await executor.command(`DROP DATABASE IF EXISTS ${database}`);
    } finally {
      await engine.close();
    }
  };
  const store: AnalyticsStore = {
    ...engine,
    close() {
      closed ??= dropAndClose();
      return closed;
    },
  };
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  let sink: WorkerHandle | undefined;
  return {
    store,
    async startSink(bus, clock, options = {}) {
      if (sink !== undefined) throw new Error('the analytics sink is already started');
      sink = await analyticsSink.start({
        bus,
        analytics: store,
        logger: silentLogger,
        retentionDays: options.retentionDays ?? 30,
        clock,
        lingerMs: options.lingerMs ?? 0,
      });
      return sink;
    },
    async caughtUp() {
      if (sink === undefined) throw new Error('the analytics sink was never started');
      await sink.caughtUp();
    },
    async close(app) {
      await sink?.close();
      await app?.close();
      await store.close();
    },
  };
}
