import { join } from 'node:path';
import type { Logger as PinoLogger } from 'pino';
import { createMemoryEventBus } from '../src/adapters/memory/memory-event-bus.js';
import { createMemoryStateStore } from '../src/adapters/memory/memory-state-store.js';
import type { Config } from '../src/config/load-config.js';
import { validateEvent } from '../src/events/validate-event.js';
import type { AnalyticsStore } from '../src/ports/analytics-store.js';
import type { EventBus } from '../src/ports/event-bus.js';
import type { StateStore } from '../src/ports/state-store.js';
import { mathRandom } from '../src/routing/random-source.js';
import { defaultRoutingDefaults } from '../src/routing/routing-defaults.js';
import { systemClock } from '../src/time/clock.js';

/** The adapters of one process, picked from the config: a URL selects the distributed adapter. */
export interface Runtime {
  readonly mode: { readonly state: 'embedded' | 'redis'; readonly bus: 'embedded' | 'kafka'; readonly analytics: 'chdb' | 'clickhouse' | 'none' };
  readonly state: StateStore;
  readonly bus: EventBus;
  readonly analytics: AnalyticsStore | undefined;
  close(): Promise<void>;
}

/** The composition root's adapter choice. The only place (with the workers' mains) that picks infrastructure. */
export async function createRuntime(config: Config, logger: PinoLogger): Promise<Runtime> {
  const state = createMemoryStateStore({ dataDir: join(config.dataDir, 'state'), logger: logger.child({ component: 'state' }) });
  const bus = createMemoryEventBus({ logger: logger.child({ component: 'bus' }), validate: validateEvent });
  return {
    mode: { state: 'embedded', bus: 'embedded', analytics: 'none' },
    state,
    bus,
    analytics: undefined,
    async close() {
      await bus.close();
      await state.close();
    },
  };
}

export const runtimeDefaults = { clock: systemClock, random: mathRandom, routingDefaults: defaultRoutingDefaults } as const;
