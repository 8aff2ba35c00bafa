import type { Logger } from '../logging/logger.js';
import type { AnalyticsStore } from '../ports/analytics-store.js';
import type { ExperimentGuardrailTrip } from '../ports/state/experiment-guardrail.js';
import { checkExperimentGuardrail, type GuardrailCheckDeps } from './check-experiment-guardrail.js';
import { runningExperimentOf } from './enter-experiment.js';

export interface GuardrailChecksDeps extends GuardrailCheckDeps {
  readonly analytics: GuardrailCheckDeps['analytics'] & Pick<AnalyticsStore, 'merchantsWithDecisions'>;
  readonly logger: Logger;
  /** How far back a merchant's decisions make it a candidate (ms): longer than the interval, so no tick misses one. */
  readonly lookbackMs: number;
}

/** The JobQueue queue and schedule id of the periodic guardrail check. */
export const experimentGuardrailQueue = 'experiment-guardrail';
export const experimentGuardrailScheduleId = 'check';

/**
 * One tick of the periodic guardrail check: every merchant with decisions in the lookback that
 * runs an experiment has its guardrail checked (src/experiments/check-experiment-guardrail.ts), so
 * a breach stops the experiment as its feedback reaches analytics, not only when someone reads the
 * results. A merchant whose check fails is logged and the others still run. Returns the stops.
 */
export async function runGuardrailChecks(deps: GuardrailChecksDeps): Promise<ExperimentGuardrailTrip[]> {
  const untilMs = deps.clock.now();
  const merchants = await deps.analytics.merchantsWithDecisions(untilMs - deps.lookbackMs, untilMs);
  const stops: ExperimentGuardrailTrip[] = [];
  for (const merchantId of merchants) {
    try {
      const experiment = runningExperimentOf(await deps.state.routingRules.loadActive(merchantId));
      if (experiment === undefined) continue;
      const stop = await checkExperimentGuardrail(deps, experiment, 'schedule');
      if (stop === undefined) continue;
      deps.logger.warn(
        {
          merchantId,
          experimentId: stop.experimentId,
          controlAuthRate: stop.controlAuthRate,
          variantAuthRate: stop.variantAuthRate,
          thresholdPp: stop.thresholdPp,
          deltaPp: stop.deltaPp,
          pValue: stop.pValue,
          confidenceIntervalPp: stop.confidenceIntervalPp,
        },
        'experiment guardrail breached: experiment stopped',
      );
      stops.push(stop);
    } catch (error) {
      deps.logger.error({ err: error, merchantId }, 'experiment guardrail check failed for the merchant; the next tick retries');
    }
  }
  return stops;
}
