import { mapEventsToAnalyticsRows } from '../src/analytics/map-event-to-rows.js';
import type { Logger } from '../src/logging/logger.js';
import type { AnalyticsStore } from '../src/ports/analytics-store.js';
import type { EventBus } from '../src/ports/event-bus.js';
import { handleOf, type WorkerHandle } from './worker-handle.js';

export interface AnalyticsSinkDeps {
  readonly bus: EventBus;
  readonly analytics: AnalyticsStore;
  readonly logger: Logger;
  /** Largest insert, in events (size bound). */
  readonly maxBatchSize?: number;
  /** How long a small batch may wait for company before it is written (time bound), in ms. */
  readonly lingerMs?: number;
}

export const analyticsSinkGroup = 'analytics-sink';

/**
 * The analytics-sink worker: every event becomes ClickHouse rows, written in batches. A failed
 * insert throws, so the bus redelivers the batch; re-inserted rows carry the same event ids and
 * every analytics read de-duplicates by event id, so retries and restarts never double-count.
 */
export async function start(deps: AnalyticsSinkDeps): Promise<WorkerHandle> {
  const log = deps.logger.child({ worker: analyticsSinkGroup });
  const subscription = await deps.bus.subscribe({
    group: analyticsSinkGroup,
    topics: ['routing', 'scores', 'api'],
    maxBatchSize: deps.maxBatchSize ?? 20_000,
    lingerMs: deps.lingerMs ?? 500,
    handler: async (batch) => {
      const rows = mapEventsToAnalyticsRows(batch);
      const started = performance.now();
      await deps.analytics.insert(rows);
      log.debug({ events: batch.length, domainRows: rows.domain.length, apiRows: rows.api.length, ms: Math.round(performance.now() - started) }, 'analytics batch written');
    },
  });
  log.info({ group: analyticsSinkGroup }, 'worker started');
  return handleOf(analyticsSinkGroup, subscription);
}
