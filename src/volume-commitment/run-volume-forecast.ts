import type { Logger } from '../logging/logger.js';
import type { AnalyticsStore } from '../ports/analytics-store.js';
import type { CommitmentDayVolume } from '../ports/analytics/commitment-volume.js';
import type { ConfigStore } from '../ports/state/config-store.js';
import type { RoutingAlgorithmRecord, RoutingRuleStore } from '../ports/state/routing-rule-store.js';
import type { SteeringPlan, VolumeContractConfig } from '../ports/state/volume-commitment.js';
import type { Clock } from '../time/clock.js';
import { isFeatureEnabled, readMerchantFeatures } from '../decision/features/merchant-features.js';
import { buildSteeringPlan, type MeasuredPsp, measure, paceWindowDays } from './build-steering-plan.js';
import { type Commitment, commitmentsOf, secondsPerDay } from './commitments-of.js';
import { minorUnitExponent } from './read-volume-contract.js';

/** The `routing_approach` of a decision steering moved (the peer's `SR_SELECTION_VOLUME_COMMITMENT`). */
export const steeredApproach = 'SR_SELECTION_VOLUME_COMMITMENT';
/** The JobQueue queue and schedule id of the forecaster's repeating job. */
export const volumeForecastQueue = 'volume-commitment';
export const volumeForecastScheduleId = 'forecast';

export interface VolumeForecastDeps {
  readonly routingRules: Pick<RoutingRuleStore, 'loadActive'>;
  readonly configs: Pick<ConfigStore, 'get' | 'put'>;
  readonly analytics: Pick<AnalyticsStore, 'commitmentVolume' | 'merchantsWithDecisions'>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The cadence of merchants whose document sets no `forecast_interval_secs`. */
  readonly defaultIntervalSeconds: number;
}

/** One merchant's run (the peer's `MerchantRun`). */
export interface MerchantRun {
  readonly merchantId: string;
  readonly pspsTracked: number;
  readonly pspsSteering: number;
  readonly pspsDropped: number;
  readonly nextRunInSecs: number;
}

/** A whole run (the peer's `RunReport`): the soonest cadence lets one sweep serve every merchant. */
export interface RunReport {
  readonly merchantsProcessed: number;
  readonly merchantsSkipped: number;
  readonly merchantsFailed: number;
  readonly nextRunInSecs: number;
  readonly merchants: MerchantRun[];
}

/** The merchant's active contract (its `volume_commitment` slot), if any. */
export type ContractRecord = RoutingAlgorithmRecord & { readonly algorithm: { readonly type: 'volume_contract'; readonly data: VolumeContractConfig } };

export function activeContractOf(active: readonly RoutingAlgorithmRecord[]): ContractRecord | undefined {
  // The slot sorts last (algorithmForValues), so the contract, when there is one, is the last record.
  const last = active[active.length - 1];
  return last?.algorithmFor === 'volume_commitment' && last.algorithm.type === 'volume_contract' ? (last as ContractRecord) : undefined;
}

export function intervalSecondsOf(config: VolumeContractConfig, deps: Pick<VolumeForecastDeps, 'defaultIntervalSeconds'>): number {
  return Math.max(1, config.forecast_interval_secs ?? deps.defaultIntervalSeconds);
}

/** Decisions carry amounts in major units; a `gmv` document counts minor ones. */
export function amountScaleOf(config: VolumeContractConfig): number {
  return config.metric === 'gmv' ? 10 ** minorUnitExponent(config.currency.denomination) : 1;
}

/** What a merchant's contract and its measured delivery are, read once for a forecast or a view. */
export interface ContractState {
  readonly record: ContractRecord;
  readonly commitments: readonly Commitment[];
  readonly rows: readonly CommitmentDayVolume[];
  readonly measured: ReadonlyMap<string, MeasuredPsp>;
  readonly nowMs: number;
}

/** Reads the delivery of every commitment over its own cycle: one read per distinct cycle (usually one). */
export async function readContractState(deps: Pick<VolumeForecastDeps, 'analytics' | 'clock'>, record: ContractRecord): Promise<ContractState> {
  const nowMs = deps.clock.now();
  const config = record.algorithm.data;
  const commitments = commitmentsOf(config, nowMs);
  const groups = new Map<string, Commitment[]>();
  for (const commitment of commitments) {
    const key = `${commitment.periodStartMs}:${commitment.daySecs}`;
    groups.set(key, [...(groups.get(key) ?? []), commitment]);
  }
  const rows: CommitmentDayVolume[] = [];
  const measured = new Map<string, MeasuredPsp>();
  for (const group of groups.values()) {
    const first = group[0] as Commitment;
    const read = await deps.analytics.commitmentVolume({
      merchantId: record.createdBy,
      connectors: group.map((commitment) => commitment.connector),
      sinceMs: first.periodStartMs,
      untilMs: nowMs + 1,
      dayMs: first.daySecs * 1000,
      steeredApproach,
    });
    rows.push(...read);
    for (const commitment of group) measured.set(commitment.connector, measure(read, commitment, nowMs, config, amountScaleOf(config)));
  }
  return { record, commitments, rows, measured, nowMs };
}

/** The plan for a contract's state (never stored here). */
export function planOf(deps: Pick<VolumeForecastDeps, 'defaultIntervalSeconds'>, state: ContractState): SteeringPlan {
  const { record } = state;
  return buildSteeringPlan({
    merchantId: record.createdBy,
    ruleId: record.id,
    contractAnchorMs: record.modifiedAt,
    config: record.algorithm.data,
    commitments: state.commitments,
    measured: state.measured,
    nowMs: state.nowMs,
    intervalSeconds: intervalSecondsOf(record.algorithm.data, deps),
  });
}

/**
 * One merchant's forecast: re-measure, re-decide what to chase, publish the plan (config document
 * `volumeCommitmentPlan`, read by decisions through the config cache). Undefined (skipped) when the
 * merchant has no active contract or its `volume-contracts` feature is off.
 */
export async function runMerchantForecast(deps: VolumeForecastDeps, merchantId: string): Promise<MerchantRun | undefined> {
  const [active, flags] = await Promise.all([deps.routingRules.loadActive(merchantId), readMerchantFeatures(deps.configs, merchantId)]);
  const record = activeContractOf(active);
  if (record === undefined || !isFeatureEnabled(flags, 'volume-contracts')) return undefined;
  const plan = planOf(deps, await readContractState(deps, record));
  await deps.configs.put(merchantId, 'volumeCommitmentPlan', plan, 'upsert');
  const run: MerchantRun = {
    merchantId,
    pspsTracked: plan.psps.length,
    pspsSteering: plan.psps.filter((psp) => psp.needsSteering).length,
    pspsDropped: plan.dropped.length,
    nextRunInSecs: intervalSecondsOf(record.algorithm.data, deps),
  };
  deps.logger.info(
    { merchantId, runId: plan.runId, tracked: run.pspsTracked, steering: run.pspsSteering, dropped: run.pspsDropped },
    'volume commitment forecast published',
  );
  return run;
}

/**
 * A sweep: every merchant with decisions over the pace window (the candidates; a merchant with no
 * traffic has nothing to steer), each run in turn. A merchant whose run throws is counted as failed
 * and logged; its previous plan stands and the others still run.
 */
export async function runVolumeForecast(deps: VolumeForecastDeps, merchantId?: string): Promise<RunReport> {
  const nowMs = deps.clock.now();
  const merchants =
    merchantId !== undefined ? [merchantId] : await deps.analytics.merchantsWithDecisions(nowMs - paceWindowDays * secondsPerDay * 1000, nowMs + 1);
  const runs: MerchantRun[] = [];
  let skipped = 0;
  let failed = 0;
  for (const id of merchants) {
    try {
      const run = await runMerchantForecast(deps, id);
      if (run === undefined) skipped += 1;
      else runs.push(run);
    } catch (error) {
      failed += 1;
      deps.logger.error({ err: error, merchantId: id }, 'volume commitment forecast failed for the merchant; its previous plan stands');
    }
  }
  const soonest = Math.min(...runs.map((run) => run.nextRunInSecs), Number.POSITIVE_INFINITY);
  return {
    merchantsProcessed: runs.length,
    merchantsSkipped: skipped,
    merchantsFailed: failed,
    nextRunInSecs: Number.isFinite(soonest) ? soonest : Math.max(1, deps.defaultIntervalSeconds),
    merchants: runs,
  };
}
