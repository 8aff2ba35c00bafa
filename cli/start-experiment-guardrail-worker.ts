import type { Config } from '../src/config/load-config.js';
import type { Logger } from '../src/logging/logger.js';
import type { AnalyticsStore } from '../src/ports/analytics-store.js';
import type { JobQueue } from '../src/ports/job-queue.js';
import type { StateStore } from '../src/ports/state-store.js';
import type { Clock } from '../src/time/clock.js';
import * as experimentGuardrailWorker from '../workers/experiment-guardrail.js';
import type { WorkerHandle } from '../workers/worker-handle.js';

/** 24 h: a payment's feedback can come hours after its decision; merchants quiet for a day have nothing new to judge. */
const experimentGuardrailLookbackMs = 24 * 60 * 60 * 1000;

export interface ExperimentGuardrailWiring {
  readonly state: StateStore;
  readonly analytics: AnalyticsStore;
  readonly jobs: JobQueue;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * Starts the periodic experiment guardrail check (docs/experiments.md) on the JobQueue scheduler,
 * every `experimentGuardrailIntervalSeconds` (default 60): a breach stops the experiment within one
 * interval of its feedback reaching analytics.
 */
export function startExperimentGuardrailWorker(config: Config, wiring: ExperimentGuardrailWiring): Promise<WorkerHandle> {
  return experimentGuardrailWorker.start({
    jobs: wiring.jobs,
    intervalMs: config.experimentGuardrailIntervalSeconds * 1000,
    checks: { state: wiring.state, analytics: wiring.analytics, clock: wiring.clock, logger: wiring.logger, lookbackMs: experimentGuardrailLookbackMs },
  });
}
