import { SwitchyardError } from '../errors/switchyard-error.js';
import type { ExperimentAnalytics, ExperimentTransactionFact } from '../ports/analytics/experiment-reports.js';
import type { StateStore } from '../ports/state-store.js';
import type { AbTestData, ExperimentEndpoint } from '../ports/state/routing-algorithm.js';
import type { RoutingAlgorithmRecord } from '../ports/state/routing-rule-store.js';
import { statusFamilyOf } from '../analytics/status-families.js';
import type { Clock } from '../time/clock.js';
import { experimentStatistics, type ExperimentStatistics } from './experiment-verdict.js';
import type { ExperimentGuardrailTrip } from '../ports/state/experiment-guardrail.js';
import { guardrailStopOf } from './check-experiment-guardrail.js';
import { runningExperimentOf } from './enter-experiment.js';

export interface ExperimentReadDeps {
  readonly state: Pick<StateStore, 'routingRules' | 'configs'>;
  readonly analytics: ExperimentAnalytics | undefined;
  readonly clock: Clock;
}

/** Query overrides of GET /analytics/experiment/{id}/results (the peer's). */
export interface ExperimentResultsOptions {
  readonly startMs?: number;
  readonly endMs?: number;
  readonly minSampleSize?: number;
  readonly guardrailThresholdPp?: number;
  readonly evaluationMargin?: number;
  /** Only the payments this endpoint routed (an ad-hoc read: it never stops traffic). */
  readonly endpoint?: ExperimentEndpoint;
}

export type ExperimentResults = ExperimentStatistics & {
  readonly experiment_id: string;
  readonly merchant_id: string;
  readonly min_sample_size: number;
  readonly guardrail_threshold_pp: number;
  readonly evaluation_margin: number;
  /** Whether the guardrail has stopped the experiment (now or earlier). */
  readonly guardrail_tripped: boolean;
  /** Whether the experiment is active now. */
  readonly running: boolean;
  readonly guardrail_stop: GuardrailStopWire | null;
};

/** The recorded guardrail stop as the results answer it. */
export interface GuardrailStopWire {
  readonly stopped_at_ms: number;
  readonly trigger: string | null;
  readonly control_auth_rate: number;
  readonly variant_auth_rate: number;
  readonly threshold_pp: number;
  readonly control_transactions: number | null;
  readonly variant_transactions: number | null;
  readonly window_start_ms: number | null;
  /** `msprt` (the always-valid test); null on a stop recorded before it (a point estimate then). */
  readonly test: 'msprt' | null;
  readonly delta_pp: number | null;
  readonly p_value: number | null;
  readonly confidence_interval_pp: readonly [number, number] | null;
}

function stopWire(trip: ExperimentGuardrailTrip | undefined): GuardrailStopWire | null {
  if (trip === undefined) return null;
  return {
    stopped_at_ms: trip.trippedAt,
    trigger: trip.trigger ?? null,
    control_auth_rate: trip.controlAuthRate,
    variant_auth_rate: trip.variantAuthRate,
    threshold_pp: trip.thresholdPp,
    control_transactions: trip.controlTransactions ?? null,
    variant_transactions: trip.variantTransactions ?? null,
    window_start_ms: trip.windowStartMs ?? null,
    test: trip.test ?? null,
    delta_pp: trip.deltaPp ?? null,
    p_value: trip.pValue ?? null,
    confidence_interval_pp: trip.confidenceIntervalPp ?? null,
  };
}

/** The business margin valuing a success when neither the query nor the merchant's SR config sets one (the peer's default). */
const defaultEvaluationMargin = 1;

type Experiment = RoutingAlgorithmRecord & { readonly algorithm: { readonly type: 'ab_test'; readonly data: AbTestData } };

/** The merchant's experiment `id`; another merchant's (or a non-experiment algorithm) is as unknown as a missing one. */
async function experimentOf(deps: ExperimentReadDeps, merchantId: string, id: string): Promise<Experiment> {
  const record = await deps.state.routingRules.get(id);
  if (record === undefined || record.createdBy !== merchantId || record.algorithm.type !== 'ab_test') {
    throw new SwitchyardError('SY_EXPERIMENT_NOT_FOUND', { message: `Experiment not found for the provided id : ${id}`, details: { experimentId: id } });
  }
  return record as Experiment;
}

function analyticsOf(deps: ExperimentReadDeps): ExperimentAnalytics {
  if (deps.analytics === undefined) throw new SwitchyardError('SY_ANALYTICS_UNAVAILABLE', { message: 'Failed while connecting to database' });
  return deps.analytics;
}

function windowOf(deps: ExperimentReadDeps, experiment: Experiment, startMs: number | undefined, endMs: number | undefined) {
  const window = { startMs: startMs ?? experiment.createdAt, endMs: endMs ?? deps.clock.now() };
  if (window.endMs < window.startMs) {
    throw new SwitchyardError('SY_REQUEST_INVALID', { message: `end_ms (${window.endMs}) is before start_ms (${window.startMs})` });
  }
  return window;
}

/**
 * The results of an experiment over its window (default: since it was created), with the verdict
 * of experiment-verdict.ts (always-valid, so reading it often inflates nothing). A read is
 * side-effect free: it never stops traffic. Only the periodic check
 * (src/experiments/run-guardrail-checks.ts) stops an experiment whose guardrail is breached; until
 * its next tick a read may answer `guardrail_breached` with `running` still true.
 */
export async function experimentResults(
  deps: ExperimentReadDeps,
  merchantId: string,
  experimentId: string,
  options: ExperimentResultsOptions,
): Promise<ExperimentResults> {
  const experiment = await experimentOf(deps, merchantId, experimentId);
  const analytics = analyticsOf(deps);
  const data = experiment.algorithm.data;
  const window = windowOf(deps, experiment, options.startMs, options.endMs);
  const active = await deps.state.routingRules.loadActive(merchantId);
  const running = runningExperimentOf(active)?.id === experiment.id;
  const [arms, successRate, stop] = await Promise.all([
    analytics.experimentArms({ merchantId, experimentId, ...window, ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }) }),
    deps.state.configs.get(merchantId, 'successRate'),
    guardrailStopOf(deps.state, merchantId, experiment.id),
  ]);
  const thresholds = {
    minSampleSize: options.minSampleSize ?? data.min_sample_size,
    guardrailThresholdPp: options.guardrailThresholdPp ?? data.guardrail_threshold_pp,
    evaluationMargin: options.evaluationMargin ?? successRate?.margin ?? defaultEvaluationMargin,
  };
  const statistics = experimentStatistics(
    arms.find((arm) => arm.arm === 'control'),
    arms.find((arm) => arm.arm === 'variant'),
    thresholds,
  );
  return {
    experiment_id: experiment.id,
    merchant_id: merchantId,
    ...statistics,
    min_sample_size: thresholds.minSampleSize,
    guardrail_threshold_pp: thresholds.guardrailThresholdPp,
    evaluation_margin: thresholds.evaluationMargin,
    guardrail_tripped: stop !== undefined && !running,
    running,
    guardrail_stop: stopWire(stop),
  };
}

export interface ExperimentTransactionsPage {
  readonly experiment_id: string;
  readonly total: number;
  readonly page: number;
  readonly page_size: number;
  readonly transactions: readonly ExperimentTransactionFact[];
}

/** Most a page holds (the peer's cap). */
export const maxExperimentPageSize = 100;

/**
 * A page of the experiment's payments, newest first: arm, gateway decided, and outcome (`success`,
 * `failure`, `pending` before any feedback, else the feedback status lower-cased).
 */
export async function experimentTransactions(
  deps: ExperimentReadDeps,
  merchantId: string,
  experimentId: string,
  options: { readonly startMs?: number; readonly endpoint?: ExperimentEndpoint; readonly page: number; readonly pageSize: number },
): Promise<ExperimentTransactionsPage> {
  const experiment = await experimentOf(deps, merchantId, experimentId);
  const analytics = analyticsOf(deps);
  const pageSize = Math.min(options.pageSize, maxExperimentPageSize);
  const window = windowOf(deps, experiment, options.startMs, undefined);
  const result = await analytics.experimentTransactions({
    merchantId,
    experimentId,
    ...window,
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    limit: pageSize,
    offset: (options.page - 1) * pageSize,
  });
  return {
    experiment_id: experiment.id,
    total: result.total,
    page: options.page,
    page_size: pageSize,
    transactions: result.transactions.map((row) => ({ ...row, status: outcomeOf(row.status) })),
  };
}

function outcomeOf(status: string): string {
  if (status === '') return 'pending';
  const family = statusFamilyOf(status);
  return family === 'other' ? status.toLowerCase() : family;
}
