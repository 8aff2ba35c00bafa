import { SwitchyardError } from '../errors/switchyard-error.js';
import type { ExperimentAnalytics, ExperimentTransactionFact } from '../ports/analytics/experiment-reports.js';
import type { StateStore } from '../ports/state-store.js';
import type { AbTestData } from '../ports/state/routing-algorithm.js';
import type { RoutingAlgorithmRecord } from '../ports/state/routing-rule-store.js';
import { statusFamilyOf } from '../analytics/status-families.js';
import type { Clock } from '../time/clock.js';
import { experimentStatistics, type ExperimentStatistics } from './experiment-verdict.js';

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
}

export type ExperimentResults = ExperimentStatistics & {
  readonly experiment_id: string;
  readonly merchant_id: string;
  readonly min_sample_size: number;
  readonly guardrail_threshold_pp: number;
  readonly evaluation_margin: number;
  /** Whether the guardrail has stopped the variant's traffic (now or on an earlier read). */
  readonly guardrail_tripped: boolean;
};

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
 * The results of an experiment over its window (default: since it was created). Runs the verdict
 * of experiment-verdict.ts; when that is `guardrail_breached` with the experiment's own thresholds
 * over its whole window (no query override), it also trips the guardrail: the ConfigStore document
 * `experimentGuardrail` from then on sends every payment of this experiment version to control.
 * An ad-hoc sensitivity read (overridden thresholds or window) never stops traffic.
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
  const [arms, successRate, trip] = await Promise.all([
    analytics.experimentArms({ merchantId, experimentId, ...window }),
    deps.state.configs.get(merchantId, 'successRate'),
    deps.state.configs.get(merchantId, 'experimentGuardrail'),
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
  let tripped = trip !== undefined && trip.experimentId === experiment.id && trip.experimentModifiedAt === experiment.modifiedAt;
  const ownThresholds = options.minSampleSize === undefined && options.guardrailThresholdPp === undefined;
  const wholeWindow = options.startMs === undefined && options.endMs === undefined;
  if (statistics.verdict === 'guardrail_breached' && !tripped && ownThresholds && wholeWindow) {
    await deps.state.configs.put(
      merchantId,
      'experimentGuardrail',
      {
        experimentId: experiment.id,
        experimentModifiedAt: experiment.modifiedAt,
        trippedAt: deps.clock.now(),
        controlAuthRate: statistics.control.auth_rate,
        variantAuthRate: statistics.variant.auth_rate,
        thresholdPp: thresholds.guardrailThresholdPp,
      },
      'upsert',
    );
    tripped = true;
  }
  return {
    experiment_id: experiment.id,
    merchant_id: merchantId,
    ...statistics,
    min_sample_size: thresholds.minSampleSize,
    guardrail_threshold_pp: thresholds.guardrailThresholdPp,
    evaluation_margin: thresholds.evaluationMargin,
    guardrail_tripped: tripped,
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
  options: { readonly startMs?: number; readonly page: number; readonly pageSize: number },
): Promise<ExperimentTransactionsPage> {
  const experiment = await experimentOf(deps, merchantId, experimentId);
  const analytics = analyticsOf(deps);
  const pageSize = Math.min(options.pageSize, maxExperimentPageSize);
  const window = windowOf(deps, experiment, options.startMs, undefined);
  const result = await analytics.experimentTransactions({ merchantId, experimentId, ...window, limit: pageSize, offset: (options.page - 1) * pageSize });
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
