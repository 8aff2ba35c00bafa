import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChdbAnalyticsStore } from '../../src/adapters/chdb/chdb-analytics-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import type { AnalyticsStore } from '../../src/ports/analytics-store.js';
import type { EventBus } from '../../src/ports/event-bus.js';
import type { Clock } from '../../src/time/clock.js';
import * as analyticsSink from '../../workers/analytics-sink.js';
import type { WorkerHandle } from '../../workers/worker-handle.js';

/**
 * The embedded analytics store (chDB, migrated, in a fresh temporary directory) and the analytics
 * sink that fills it from a test app's bus: what every contract test of an /analytics/* read needs,
 * set up in one place so the close order (sink, app, store) is written once.
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
   * Closes the sink, then `app` (the sink reads its bus, so it must leave first), then the store,
   * and deletes the directory. Safe after a set-up that failed half way.
   */
  close(app?: { close(): Promise<void> }): Promise<void>;
}

/** A migrated chDB store in a new directory named `sytest-<name>-…`; the sink is started separately, once the app's bus exists. */
export async function openChdbAnalytics(name: string): Promise<ChdbAnalyticsUnderTest> {
  const dataDir = mkdtempSync(join(tmpdir(), `sytest-${name}-`));
  const store = createChdbAnalyticsStore({ path: dataDir, database: 'switchyard_analytics' });
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
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
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
