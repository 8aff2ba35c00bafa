import type { Config } from '../src/config/load-config.js';
import type { Logger } from '../src/logging/logger.js';
import type { AnalyticsStore } from '../src/ports/analytics-store.js';
import type { JobQueue } from '../src/ports/job-queue.js';
import type { StateStore } from '../src/ports/state-store.js';
import type { Clock } from '../src/time/clock.js';
import type { VolumeForecastDeps } from '../src/volume-commitment/run-volume-forecast.js';
import * as volumeCommitmentWorker from '../workers/volume-commitment.js';
import type { WorkerHandle } from '../workers/worker-handle.js';

export interface VolumeCommitmentWiring {
  readonly state: StateStore;
  readonly analytics: AnalyticsStore;
  readonly jobs: JobQueue;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** The forecaster's dependencies (the worker's and `POST /volume-commitment/run-forecast`'s). */
export function volumeForecastDeps(config: Config, wiring: Omit<VolumeCommitmentWiring, 'jobs'>): VolumeForecastDeps {
  return {
    routingRules: wiring.state.routingRules,
    configs: wiring.state.configs,
    analytics: wiring.analytics,
    clock: wiring.clock,
    logger: wiring.logger,
    defaultIntervalSeconds: config.volumeCommitmentIntervalSeconds,
  };
}

/** Starts the volume-commitment forecaster every `VOLUME_COMMITMENT_INTERVAL_SECONDS`. */
export function startVolumeCommitmentWorker(config: Config, wiring: VolumeCommitmentWiring): Promise<WorkerHandle> {
  return volumeCommitmentWorker.start({
    jobs: wiring.jobs,
    intervalMs: config.volumeCommitmentIntervalSeconds * 1000,
    forecast: volumeForecastDeps(config, wiring),
  });
}
