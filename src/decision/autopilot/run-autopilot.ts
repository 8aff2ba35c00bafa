import { createEvent } from '../../events/event-envelope.js';
import type { Logger } from '../../logging/logger.js';
import type { AnalyticsStore } from '../../ports/analytics-store.js';
import { type SegmentDimension, segmentDimensions } from '../../ports/analytics/segment-traffic.js';
import type { EventBus } from '../../ports/event-bus.js';
import { type AutopilotRun, autopilotRunsKept } from '../../ports/state/autopilot-runs.js';
import type { ConfigStore } from '../../ports/state/config-store.js';
import type { Clock } from '../../time/clock.js';
import { isFeatureEnabled, readMerchantFeatures } from '../features/merchant-features.js';
import type { CalibrationBounds } from './calibration-formulas.js';
import { type CandidateEstimator, candidateConfigurations, chooseConfiguration } from './choose-configuration.js';
import { applySettings, planSegments } from './plan-calibration.js';

export interface AutopilotDeps {
  readonly configs: ConfigStore;
  readonly analytics: Pick<AnalyticsStore, 'segmentTraffic' | 'merchantsWithDecisions'>;
  readonly bus: Pick<EventBus, 'publish'>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly bounds: CalibrationBounds;
  /** The counterfactual estimator; without one the formulas' proposal is written. */
  readonly estimate?: CandidateEstimator;
}

/** The JobQueue queue and schedule id of the autopilot's repeating job. */
export const autopilotQueue = 'autopilot';
export const autopilotScheduleId = 'calibrate';

/**
 * Both flags must be on: `auto-calibration` lets the job consider the merchant, `autopilot` lets
 * it write (decision-engine's pair; either alone does nothing).
 */
export async function isEnrolled(configs: Pick<ConfigStore, 'get'>, merchantId: string): Promise<boolean> {
  const flags = await readMerchantFeatures(configs, merchantId);
  return isFeatureEnabled(flags, 'auto-calibration') && isFeatureEnabled(flags, 'autopilot');
}

/**
 * One tick of the autopilot: every merchant with decisions in the lookback and both flags on is
 * calibrated in turn. A merchant whose run fails is logged and the others still run; the next
 * tick tries again. Returns the runs recorded.
 */
export async function runAutopilot(deps: AutopilotDeps, tick: { readonly scheduledAt: number }): Promise<AutopilotRun[]> {
  const untilMs = deps.clock.now();
  const sinceMs = untilMs - deps.bounds.lookbackSeconds * 1000;
  const merchants = await deps.analytics.merchantsWithDecisions(sinceMs, untilMs);
  const runs: AutopilotRun[] = [];
  for (const merchantId of merchants) {
    try {
      if (!(await isEnrolled(deps.configs, merchantId))) continue;
      runs.push(await calibrateMerchant(deps, merchantId, { scheduledAt: tick.scheduledAt, sinceMs, untilMs }));
    } catch (error) {
      deps.logger.error({ err: error, merchantId }, 'autopilot run failed for the merchant; the next tick retries');
    }
  }
  return runs;
}

/** The low-cardinality dimensions the merchant's success-rate windows are split by (BIN never). */
async function segmentDimensionsOf(configs: Pick<ConfigStore, 'get'>, merchantId: string): Promise<SegmentDimension[]> {
  const fields = (await configs.get(merchantId, 'srDimension'))?.fields ?? [];
  return segmentDimensions.filter((dimension) => fields.includes(dimension));
}

/**
 * Calibrates one merchant: reads its segments' traffic, plans each segment, chooses among the
 * candidate configurations, writes the success-rate config as ONE whole-document put (a process
 * that dies mid-run leaves the old document or the new one, never a mix), then records the run and
 * publishes it (`autopilot.calibrated`, analytics flow `autopilot_calibration`).
 */
export async function calibrateMerchant(
  deps: AutopilotDeps,
  merchantId: string,
  window: { readonly scheduledAt: number; readonly sinceMs: number; readonly untilMs: number },
): Promise<AutopilotRun> {
  const dimensions = await segmentDimensionsOf(deps.configs, merchantId);
  const traffic = await deps.analytics.segmentTraffic({ merchantId, sinceMs: window.sinceMs, untilMs: window.untilMs, dimensions });
  const config = await deps.configs.get(merchantId, 'successRate');
  const plans = planSegments(config, traffic, deps.bounds);
  const choice = await chooseConfiguration(candidateConfigurations(plans, deps.bounds), plans, deps.estimate, {
    merchantId,
    sinceMs: window.sinceMs,
    untilMs: window.untilMs,
  });
  const next = applySettings(config, plans, choice.chosen.settings);
  if (next.changed) await deps.configs.put(merchantId, 'successRate', next.config, 'upsert');
  const run: AutopilotRun = {
    runId: String(window.scheduledAt),
    merchantId,
    ranAt: window.untilMs,
    lookbackSeconds: deps.bounds.lookbackSeconds,
    outcome: plans.length === 0 ? 'skipped' : next.changed ? 'applied' : 'unchanged',
    reason: plans.length === 0 ? `no segment with at least ${deps.bounds.minVolume} decisions over two or more gateways` : null,
    segments: next.changes,
    candidates: choice.candidates,
    chosen: choice.chosen.name,
    chosenBy: choice.chosenBy,
  };
  await recordRun(deps.configs, run);
  await deps.bus.publish([createEvent('autopilot.calibrated', merchantId, run, deps.clock.now())]);
  deps.logger.info(
    { merchantId, runId: run.runId, outcome: run.outcome, segments: run.segments.length, chosen: run.chosen },
    'autopilot calibrated the merchant',
  );
  return run;
}

/** Keeps the run, newest first; a re-delivered tick replaces its own record instead of adding one. */
async function recordRun(configs: Pick<ConfigStore, 'get' | 'put'>, run: AutopilotRun): Promise<void> {
  const previous = (await configs.get(run.merchantId, 'autopilotRuns'))?.runs ?? [];
  const runs = [run, ...previous.filter((other) => other.runId !== run.runId)].slice(0, autopilotRunsKept);
  await configs.put(run.merchantId, 'autopilotRuns', { runs }, 'upsert');
}

/** The merchant's recorded runs, newest first (at most `limit`). */
export async function listAutopilotRuns(configs: Pick<ConfigStore, 'get'>, merchantId: string, limit: number): Promise<readonly AutopilotRun[]> {
  return ((await configs.get(merchantId, 'autopilotRuns'))?.runs ?? []).slice(0, limit);
}
