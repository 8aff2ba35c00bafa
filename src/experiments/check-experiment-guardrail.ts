import type { ExperimentAnalytics, ExperimentArmOutcomes } from '../ports/analytics/experiment-reports.js';
import type { StateStore } from '../ports/state-store.js';
import type { ExperimentGuardrailTrip, GuardrailTrigger } from '../ports/state/experiment-guardrail.js';
import type { Clock } from '../time/clock.js';
import { experimentSlotOf } from '../ports/state/routing-rule-store.js';
import type { RunningExperiment } from './enter-experiment.js';
import { guardrailTestAtLook } from './experiment-verdict.js';

export interface GuardrailCheckDeps {
  readonly state: Pick<StateStore, 'routingRules' | 'configs'>;
  readonly analytics: Pick<ExperimentAnalytics, 'experimentArmOutcomes'>;
  readonly clock: Clock;
}

/**
 * The start of a running experiment's observation window: its creation, or, when its guardrail
 * stopped it before and it was activated again, that stop (a deliberate restart starts afresh).
 */
export function observationStartOf(experiment: RunningExperiment, trip: ExperimentGuardrailTrip | undefined): number {
  return trip !== undefined && trip.experimentId === experiment.id && trip.trippedAt > experiment.createdAt ? trip.trippedAt : experiment.createdAt;
}

/**
 * Checks a running experiment's guardrail with its own thresholds over its observation window
 * (the verdict of experiment-verdict.ts: no breach before each arm has `min_sample_size` resolved
 * payments, then the always-valid test, so checking every minute does not inflate false alarms). On a breach it stops the experiment: deactivates it from its slot (the active rule
 * stays, as on a manual stop) and records the stop with its evidence (ConfigStore
 * `experimentGuardrail`). Returns the recorded stop, or undefined when the guardrail holds.
 *
 * @remarks Called by the scheduled job (workers/experiment-guardrail.ts) only: a results read is
 * side-effect free (it reports the same verdict, and the next tick acts on it).
 */
export async function checkExperimentGuardrail(
  deps: GuardrailCheckDeps,
  experiment: RunningExperiment,
  trigger: GuardrailTrigger,
): Promise<ExperimentGuardrailTrip | undefined> {
  const merchantId = experiment.createdBy;
  const previous = await deps.state.configs.get(merchantId, 'experimentGuardrail');
  const windowStartMs = observationStartOf(experiment, previous);
  const now = deps.clock.now();
  // The arms' counts only: this runs every minute over the whole experiment (experimentArmOutcomes).
  const arms = await deps.analytics.experimentArmOutcomes({ merchantId, experimentId: experiment.id, startMs: windowStartMs, endMs: now });
  const data = experiment.algorithm.data;
  const control = arms.find((arm) => arm.arm === 'control');
  const variant = arms.find((arm) => arm.arm === 'variant');
  const test = guardrailTestAtLook(control, variant, { minSampleSize: data.min_sample_size, guardrailThresholdPp: data.guardrail_threshold_pp });
  if (test === null || !test.breached) return undefined;
  const trip: ExperimentGuardrailTrip = {
    experimentId: experiment.id,
    experimentModifiedAt: experiment.modifiedAt,
    trippedAt: now,
    controlAuthRate: authRateOf(control),
    variantAuthRate: authRateOf(variant),
    thresholdPp: data.guardrail_threshold_pp,
    trigger,
    controlTransactions: control?.resolved ?? 0,
    variantTransactions: variant?.resolved ?? 0,
    windowStartMs,
    test: test.method,
    deltaPp: test.delta_pp,
    pValue: test.p_value,
    confidenceIntervalPp: test.confidence_interval_pp,
  };
  // Deactivate first: a crash between the two leaves a stopped experiment without its record (the
  // next check finds nothing running), never a record of a stop that did not happen.
  const rules = deps.state.routingRules;
  const stopped =
    (await rules.deactivate(merchantId, experimentSlotOf(experiment.algorithmFor), experiment.id)) ||
    (await rules.deactivate(merchantId, experiment.algorithmFor, experiment.id));
  if (!stopped) return undefined;
  await deps.state.configs.put(merchantId, 'experimentGuardrail', trip, 'upsert');
  return trip;
}

/** Successes over resolved payments (0 without any): the auth rate the results report. */
function authRateOf(arm: ExperimentArmOutcomes | undefined): number {
  return arm === undefined || arm.resolved === 0 ? 0 : arm.successes / arm.resolved;
}

/** The recorded guardrail stop of `experimentId`, if the merchant's record names it. */
export async function guardrailStopOf(
  state: Pick<StateStore, 'configs'>,
  merchantId: string,
  experimentId: string,
): Promise<ExperimentGuardrailTrip | undefined> {
  const trip = await state.configs.get(merchantId, 'experimentGuardrail');
  return trip?.experimentId === experimentId ? trip : undefined;
}
