import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { AnalyticsRows } from '../src/ports/analytics/analytics-rows.js';
import { mapEventsToAnalyticsRows } from '../src/analytics/map-event-to-rows.js';
import type { Logger } from '../src/logging/logger.js';
import type { AnalyticsHandoff, AnalyticsStore } from '../src/ports/analytics-store.js';
import type { EventBus, Subscription } from '../src/ports/event-bus.js';
import type { Clock } from '../src/time/clock.js';
import { handleOf, type WorkerHandle } from './worker-handle.js';

export interface AnalyticsSinkDeps {
  readonly bus: EventBus;
  readonly analytics: AnalyticsStore;
  /**
   * In-process bus with chDB only: events are handed to chDB's thread (small batches, committed on
   * handoff) instead of being mapped and inserted here. See AnalyticsHandoff.
   */
  readonly handoff?: AnalyticsHandoff;
  readonly logger: Logger;
  /** Largest insert, in events (size bound). */
  readonly maxBatchSize?: number;
  /** How long a small batch may wait for company before it is written (time bound), in ms. */
  readonly lingerMs?: number;
  /** Rows older than this are dropped, a whole UTC day (partition) at a time. */
  readonly retentionDays: number;
  readonly clock: Clock;
}

const dayMs = 86_400_000;
/** Events mapped between yields to the event loop (see the handler). */
const mapSliceSize = 2000;

export const analyticsSinkGroup = 'analytics-sink';
const sinkTopics = ['routing', 'scores', 'api', 'llm'] as const;

/**
 * The analytics-sink worker: every event becomes ClickHouse rows, written in batches. A failed
 * insert throws, so the bus redelivers the batch; re-inserted rows carry the same event ids and
 * every analytics read de-duplicates by event id, so retries and restarts never double-count.
 * With a handoff (in-process bus, chDB) the receiving thread batches and retries instead.
 */
export async function start(deps: AnalyticsSinkDeps): Promise<WorkerHandle> {
  const log = deps.logger.child({ worker: analyticsSinkGroup });
  const handoff = deps.handoff;
  const subscription = handoff === undefined ? await subscribeInserting(deps, log) : await subscribeHandingOff(deps.bus, handoff);
  // Retention by partition drop (cheap and final, unlike row deletes): at start, then daily.
  const enforceRetention = async () => {
    try {
      const dropped = await deps.analytics.dropPartitionsBefore(deps.clock.now() - deps.retentionDays * dayMs);
      if (dropped > 0) log.info({ dropped, retentionDays: deps.retentionDays }, 'analytics partitions dropped');
    } catch (error) {
      log.error({ err: error }, 'analytics retention failed; will retry tomorrow');
    }
  };
  await enforceRetention();
  const retentionTimer = setInterval(() => void enforceRetention(), dayMs);
  retentionTimer.unref();
  log.info({ group: analyticsSinkGroup, handoff: handoff !== undefined }, 'worker started');
  const handle = handleOf(analyticsSinkGroup, subscription);
  return {
    ...handle,
    // Handed-off events are consumed before they are inserted: caught up means inserted.
    async caughtUp() {
      await handle.caughtUp();
      await handoff?.flush();
    },
    async close() {
      clearInterval(retentionTimer);
      await handle.close();
      await handoff?.flush();
    },
  };
}

/**
 * Small, frequent batches, each handed over as soon as it is published (the events leave this
 * thread's heap young: held for a large insert, they would be copied by every scavenge and promoted).
 * The receiver batches them into large inserts.
 */
function subscribeHandingOff(bus: EventBus, handoff: AnalyticsHandoff): Promise<Subscription> {
  return bus.subscribe({ group: analyticsSinkGroup, topics: sinkTopics, maxBatchSize: 1000, lingerMs: 20, handler: (batch) => handoff.accept(batch) });
}

function subscribeInserting(deps: AnalyticsSinkDeps, log: Logger): Promise<Subscription> {
  return deps.bus.subscribe({
    group: analyticsSinkGroup,
    topics: sinkTopics,
    maxBatchSize: deps.maxBatchSize ?? 20_000,
    lingerMs: deps.lingerMs ?? 500,
    // The next batch is mapped and encoded while the previous insert runs (on Kafka: 46k → 60k
    // events/s into ClickHouse 18.16, bench/sink-bench.mjs). Order across batches does not matter here.
    batchesInFlight: 2,
    handler: async (batch) => {
      const started = performance.now();
      // One insert per batch: ClickHouse writes a part per insert, and on 18.16 an insert costs
      // tens of ms whatever its size, so small inserts cap the sink (about 9,000 events/s with
      // 1,000-event inserts). Mapping runs in slices with a yield in between, so a large batch never
      // stalls an API in the same process (the store encodes in slices too). A failed insert
      // redelivers the whole batch; rows written twice are de-duplicated by event id on read.
      const slices: AnalyticsRows[] = [];
      for (let index = 0; index < batch.length; index += mapSliceSize) {
        if (index > 0) await yieldToEventLoop();
        slices.push(mapEventsToAnalyticsRows(batch.slice(index, index + mapSliceSize)));
      }
      await deps.analytics.insert({
        domain: slices.flatMap((slice) => slice.domain),
        api: slices.flatMap((slice) => slice.api),
        llm: slices.flatMap((slice) => slice.llm),
        policies: slices.flatMap((slice) => slice.policies ?? []),
        guards: slices.flatMap((slice) => slice.guards ?? []),
      });
      log.debug({ events: batch.length, ms: Math.round(performance.now() - started) }, 'analytics batch written');
    },
  });
}
