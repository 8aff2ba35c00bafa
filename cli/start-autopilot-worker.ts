import { createAutopilotEstimator } from '../src/analytics/counterfactual/autopilot-estimator.js';
import { createRunCounterfactual } from '../src/analytics/counterfactual/run-counterfactual.js';
import type { Config } from '../src/config/load-config.js';
import { defaultRoutingDefaults } from '../src/decision/routing-defaults.js';
import { defaultCalibrationBounds } from '../src/decision/autopilot/calibration-formulas.js';
import type { Logger } from '../src/logging/logger.js';
import type { AnalyticsStore } from '../src/ports/analytics-store.js';
import type { EventBus } from '../src/ports/event-bus.js';
import type { JobQueue } from '../src/ports/job-queue.js';
import type { StateStore } from '../src/ports/state-store.js';
import type { Clock } from '../src/time/clock.js';
import * as autopilotWorker from '../workers/autopilot.js';
import type { WorkerHandle } from '../workers/worker-handle.js';

export interface AutopilotWiring {
  readonly state: StateStore;
  readonly analytics: AnalyticsStore;
  readonly bus: EventBus;
  readonly jobs: JobQueue;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * Starts the autopilot worker with the `AUTOPILOT_*` settings (interval, lookback, minimum volume);
 * the reaction horizon follows the lookback and the bounds are decision-engine's (100–2,000, ≤ 30 %).
 * Candidates are weighed by the counterfactual evaluator over the lookback's logged decisions: the
 * formula's proposal is kept unless another candidate's interval clears it.
 */
export function startAutopilotWorker(config: Config, wiring: AutopilotWiring): Promise<WorkerHandle> {
  return autopilotWorker.start({
    jobs: wiring.jobs,
    intervalMs: config.autopilotIntervalSeconds * 1000,
    autopilot: {
      configs: wiring.state.configs,
      analytics: wiring.analytics,
      bus: wiring.bus,
      clock: wiring.clock,
      logger: wiring.logger,
      estimate: createAutopilotEstimator(
        createRunCounterfactual({ analytics: wiring.analytics, configs: wiring.state.configs, defaults: defaultRoutingDefaults }),
      ),
      bounds: {
        ...defaultCalibrationBounds,
        lookbackSeconds: config.autopilotLookbackSeconds,
        reactionHorizonSeconds: config.autopilotLookbackSeconds,
        minVolume: config.autopilotMinVolume,
      },
    },
  });
}
