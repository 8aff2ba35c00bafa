import { isFeatureEnabled, readMerchantFeatures } from '../decision/features/merchant-features.js';
import { SwitchyardError } from '../errors/switchyard-error.js';
import type { CommitmentDayVolume } from '../ports/analytics/commitment-volume.js';
import type { SteeringPlan, VolumeContractConfig } from '../ports/state/volume-commitment.js';
import type { MeasuredPsp } from './build-steering-plan.js';
import { type Commitment, commitmentsOf } from './commitments-of.js';
import {
  activeContractOf,
  amountScaleOf,
  type ContractRecord,
  planOf,
  readContractState,
  steeredApproach,
  type VolumeForecastDeps,
} from './run-volume-forecast.js';
import { volumeContractSamples } from './volume-contract-samples.js';

/*
 * The read-only views of `GET /merchant-account/{id}/volume-commitment/*`, in the peer's shapes
 * (camelCase, as its serde attributes say): the pacing card, the per-day series, the audit, the
 * projection (a plan computed on the spot and never stored), the impact and the samples.
 */

export type ViewDeps = Pick<VolumeForecastDeps, 'routingRules' | 'configs' | 'analytics' | 'clock' | 'defaultIntervalSeconds'>;

export interface PspPacing {
  readonly connector: string;
  readonly goal: number;
  readonly achieved: number;
  readonly gap: number;
  readonly pace: number;
  readonly srVolume: number;
  readonly floorPerDay: number;
  readonly steeredToday: number;
  readonly steerRate: number;
  readonly reward: number;
  readonly steering: boolean;
}

export interface EliminatedPspView {
  readonly connector: string;
  readonly achieved: number;
  readonly gap: number;
  readonly reward: number;
  readonly reason: string;
}

export interface VolumeCommitmentView {
  readonly merchantId: string;
  readonly active: boolean;
  readonly contractConfigured: boolean;
  readonly featureEnabled: boolean;
  readonly computedAtEpochSecs: number | null;
  readonly tolerance: number | null;
  readonly expectedDailyTraffic: number | null;
  readonly measuredDailyTraffic: number | null;
  readonly daySecs: number | null;
  readonly ruleId: string | null;
  readonly rewardAtStake: number;
  readonly cycleStart: string | null;
  readonly cycleEnd: string | null;
  readonly daysTotal: number | null;
  readonly currency: string | null;
  readonly measurementAvailable: boolean;
  readonly psps: PspPacing[];
  readonly eliminated: EliminatedPspView[];
}

function inactive(merchantId: string, featureEnabled = false): VolumeCommitmentView {
  return {
    merchantId,
    active: false,
    contractConfigured: false,
    featureEnabled,
    computedAtEpochSecs: null,
    tolerance: null,
    expectedDailyTraffic: null,
    measuredDailyTraffic: null,
    daySecs: null,
    ruleId: null,
    rewardAtStake: 0,
    cycleStart: null,
    cycleEnd: null,
    daysTotal: null,
    currency: null,
    measurementAvailable: true,
    psps: [],
    eliminated: [],
  };
}

/** A live contract with no plan for it yet: the contract-level facts, nothing paced. */
function pending(merchantId: string, record: ContractRecord, commitments: readonly Commitment[]): VolumeCommitmentView {
  const config = record.algorithm.data;
  const first = commitments[0];
  const shared = first !== undefined && commitments.every((c) => c.periodStartMs === first.periodStartMs && c.periodEndMs === first.periodEndMs);
  return {
    ...inactive(merchantId, true),
    active: true,
    contractConfigured: true,
    expectedDailyTraffic: config.expected_daily_traffic,
    daySecs: first?.daySecs ?? null,
    ruleId: record.id,
    cycleStart: shared ? rfc3339(first.periodStartMs) : null,
    cycleEnd: shared ? rfc3339(first.periodEndMs) : null,
    daysTotal: shared ? daysTotal(first) : null,
    currency: config.metric === 'gmv' ? config.currency.denomination : null,
  };
}

/** The view of a plan; shared by the live card and the projection, so the two never describe one plan differently. */
function viewOfPlan(
  merchantId: string,
  record: ContractRecord,
  commitments: readonly Commitment[],
  plan: SteeringPlan,
  measured: ReadonlyMap<string, MeasuredPsp>,
): VolumeCommitmentView {
  const goals = new Map(commitments.map((c) => [c.connector, c.goal]));
  return {
    ...pending(merchantId, record, commitments),
    computedAtEpochSecs: Math.floor(plan.computedAtMs / 1000),
    tolerance: plan.tolerance,
    measuredDailyTraffic: plan.measuredDailyTraffic,
    rewardAtStake: plan.psps.reduce((sum, psp) => sum + psp.reward, 0),
    psps: plan.psps.map((psp) => ({
      connector: psp.connector,
      goal: goals.get(psp.connector) ?? 0,
      achieved: measured.get(psp.connector)?.achieved ?? 0,
      gap: psp.remaining,
      pace: measured.get(psp.connector)?.pace ?? 0,
      srVolume: psp.routingGivesDaily,
      floorPerDay: psp.neededDaily,
      steeredToday: measured.get(psp.connector)?.steeredToday ?? 0,
      steerRate: psp.steerRate,
      reward: psp.reward,
      steering: psp.needsSteering,
    })),
    eliminated: plan.dropped.map((psp) => ({
      connector: psp.connector,
      achieved: measured.get(psp.connector)?.achieved ?? 0,
      gap: psp.remaining,
      reward: psp.reward,
      reason: psp.reason,
    })),
  };
}

interface Loaded {
  readonly featureEnabled: boolean;
  readonly record: ContractRecord | undefined;
}

async function load(deps: ViewDeps, merchantId: string): Promise<Loaded> {
  const [active, flags] = await Promise.all([deps.routingRules.loadActive(merchantId), readMerchantFeatures(deps.configs, merchantId)]);
  return { featureEnabled: isFeatureEnabled(flags, 'volume-contracts'), record: activeContractOf(active) };
}

/** The stored plan, only when it was built from the document now active. */
async function currentPlan(deps: ViewDeps, record: ContractRecord): Promise<SteeringPlan | undefined> {
  const plan = await deps.configs.get(record.createdBy, 'volumeCommitmentPlan');
  return plan !== undefined && plan.ruleId === record.id && plan.contractAnchorMs === record.modifiedAt ? plan : undefined;
}

/** Analytics failures degrade a view to "not measured" (`measurementAvailable: false`), never a 500. */
async function stateOrUndefined(deps: ViewDeps, record: ContractRecord) {
  try {
    return await readContractState(deps, record);
  } catch (error) {
    if (error instanceof SwitchyardError && error.code === 'SY_ANALYTICS_UNAVAILABLE') return undefined;
    throw error;
  }
}

/** The pacing card: the stored plan against what was delivered. */
export async function pacingView(deps: ViewDeps, merchantId: string): Promise<VolumeCommitmentView> {
  const { featureEnabled, record } = await load(deps, merchantId);
  if (record === undefined) return inactive(merchantId, featureEnabled);
  if (!featureEnabled) {
    const base = pending(merchantId, record, []);
    return {
      ...inactive(merchantId),
      contractConfigured: true,
      expectedDailyTraffic: base.expectedDailyTraffic,
      ruleId: record.id,
      daySecs: daySecsOf(record.algorithm.data),
    };
  }
  const plan = await currentPlan(deps, record);
  const state = await stateOrUndefined(deps, record);
  const commitments = state?.commitments ?? [];
  if (plan === undefined) return pending(merchantId, record, commitments);
  if (state === undefined) return { ...viewOfPlan(merchantId, record, commitments, plan, new Map()), measurementAvailable: false };
  return viewOfPlan(merchantId, record, commitments, plan, state.measured);
}

/** What contract routing would do now if it were on: a plan computed on the spot, never stored. */
export async function projectionView(deps: ViewDeps, merchantId: string): Promise<VolumeCommitmentView> {
  const { featureEnabled, record } = await load(deps, merchantId);
  if (record === undefined) return inactive(merchantId, featureEnabled);
  const state = await stateOrUndefined(deps, record);
  if (state === undefined) throw new SwitchyardError('SY_VOLUME_FORECAST_UNAVAILABLE', { message: 'delivered volume cannot be measured right now' });
  const view = viewOfPlan(merchantId, record, state.commitments, planOf(deps, state), state.measured);
  return { ...view, active: featureEnabled, featureEnabled };
}

export interface SeriesPoint {
  readonly connector: string;
  /** Buckets since the cycle opened (`perDay` to a contract day). */
  readonly dayIndex: number;
  /** The same in contract days. */
  readonly day: number;
  readonly total: number;
  readonly steered: number;
}

export interface ConnectorSeries {
  readonly connector: string;
  readonly goal: number;
  readonly reward: number;
  readonly rewardNote: string;
  readonly cycleStart: string;
  readonly cycleEnd: string;
  readonly daysTotal: number;
  readonly eliminated: boolean;
  readonly points: SeriesPoint[];
}

export interface AuditEvent {
  readonly atEpochMs: number;
  readonly kind: 'forecast' | 'steered' | 'eliminated';
  readonly runId?: string;
  readonly connector?: string;
  readonly message: string;
  readonly amount?: number;
}

export interface RunSummary {
  readonly runId: string;
  readonly startedAtEpochMs: number;
  readonly lastActivityEpochMs: number;
  readonly forecasts: number;
  readonly steers: number;
  readonly eliminations: number;
  readonly isCurrent: boolean;
}

export interface DashboardResponse {
  readonly pacing: VolumeCommitmentView;
  readonly series: { readonly merchantId: string; readonly currency: string | null; readonly daySecs: number | null; readonly connectors: ConnectorSeries[] };
  readonly audit: { readonly merchantId: string; readonly runs: RunSummary[]; readonly events: AuditEvent[] };
}

/** Finest series resolution: one bucket per minute of a contract day. */
const maxBucketsPerDay = 1440;

/**
 * Pacing, series and audit in one response (one poll for the dashboard). `runId` (`vcr_<ms>`)
 * re-aims the series at a past cycle of the same length; `perDay` buckets each contract day.
 */
export async function dashboardView(
  deps: ViewDeps,
  merchantId: string,
  query: { readonly runId?: string; readonly perDay?: number },
): Promise<DashboardResponse> {
  const pacing = await pacingView(deps, merchantId);
  const empty: DashboardResponse = {
    pacing,
    series: { merchantId, currency: null, daySecs: null, connectors: [] },
    audit: { merchantId, runs: [], events: [] },
  };
  const { featureEnabled, record } = await load(deps, merchantId);
  if (record === undefined || !featureEnabled) return empty;
  const config = record.algorithm.data;
  const plan = await currentPlan(deps, record);
  const nowMs = deps.clock.now();
  const commitments = shiftToRun(commitmentsOf(config, nowMs), query.runId);
  const perDay = Math.min(maxBucketsPerDay, Math.max(1, Math.floor(query.perDay ?? 1)));
  const eliminated = new Set(plan?.dropped.map((psp) => psp.connector) ?? []);
  const scale = amountScaleOf(config);
  const connectors: ConnectorSeries[] = [];
  const steerEvents: AuditEvent[] = [];
  const runId = commitments[0] === undefined ? undefined : `vcr_${Math.min(...commitments.map((c) => c.periodStartMs))}`;
  for (const commitment of commitments) {
    const rows = await readRowsOrEmpty(deps, merchantId, commitment, perDay, nowMs);
    const points = rows.map((row) => ({
      connector: row.connector,
      dayIndex: row.dayIndex,
      day: row.dayIndex / perDay,
      total: volumeOf(config, row, scale),
      steered: steeredOf(config, row, scale),
    }));
    connectors.push({
      connector: commitment.connector,
      goal: commitment.goal,
      reward: commitment.reward,
      rewardNote: commitment.rewardNote,
      cycleStart: rfc3339(commitment.periodStartMs),
      cycleEnd: rfc3339(commitment.periodEndMs),
      daysTotal: daysTotal(commitment),
      eliminated: eliminated.has(commitment.connector),
      points,
    });
    const bucketMs = (commitment.daySecs * 1000) / perDay;
    for (const point of points) {
      if (point.steered <= 0) continue;
      const steeredPayments = rows.find((row) => row.dayIndex === point.dayIndex)?.steeredPayments ?? 0;
      steerEvents.push({
        atEpochMs: Math.round(commitment.periodStartMs + (point.dayIndex + 1) * bucketMs) - 1,
        kind: 'steered',
        ...(runId === undefined ? {} : { runId }),
        connector: commitment.connector,
        message: `Steered ${steeredPayments} payment(s) worth ${point.steered.toFixed(0)} to ${commitment.connector} on day ${Math.floor(point.day)} of the cycle.`,
        amount: point.steered,
      });
    }
  }
  const planEvents: AuditEvent[] =
    plan === undefined || (query.runId !== undefined && plan.runId !== query.runId)
      ? []
      : [
          {
            atEpochMs: plan.computedAtMs,
            kind: 'forecast',
            runId: plan.runId,
            message: `Forecast: ${plan.psps.length} commitment(s) tracked, ${plan.psps.filter((psp) => psp.needsSteering).length} steering, ${plan.dropped.length} given up.`,
          },
          ...plan.dropped.map(
            (psp): AuditEvent => ({
              atEpochMs: plan.computedAtMs,
              kind: 'eliminated',
              runId: plan.runId,
              connector: psp.connector,
              message: psp.reason,
              amount: psp.remaining,
            }),
          ),
        ];
  const events = [...planEvents, ...steerEvents].sort((a, b) => b.atEpochMs - a.atEpochMs);
  const runs: RunSummary[] =
    runId === undefined
      ? []
      : [
          {
            runId,
            startedAtEpochMs: Number(runId.slice(4)),
            lastActivityEpochMs: events[0]?.atEpochMs ?? Number(runId.slice(4)),
            forecasts: events.filter((event) => event.kind === 'forecast').length,
            steers: steerEvents.length,
            eliminations: events.filter((event) => event.kind === 'eliminated').length,
            isCurrent: plan?.runId === runId,
          },
        ];
  return {
    pacing,
    series: { merchantId, currency: config.metric === 'gmv' ? config.currency.denomination : null, daySecs: commitments[0]?.daySecs ?? null, connectors },
    audit: { merchantId, runs, events },
  };
}

export interface ImpactSlice {
  readonly payments: number;
  readonly volume: number;
}

export interface ConnectorImpact {
  readonly connector: string;
  readonly goal: number;
  readonly reward: number;
  readonly eliminated: boolean;
  readonly steering: boolean;
  readonly before: ImpactSlice;
  readonly withContract: ImpactSlice;
  readonly unaided: ImpactSlice;
  readonly steered: ImpactSlice;
  /** What routing would have sent here but steering moved elsewhere (see docs/volume-commitments.md). */
  readonly ceded: ImpactSlice;
}

export interface ImpactResponse {
  readonly merchantId: string;
  readonly contractSinceMs: number;
  readonly cycle: { readonly startMs: number; readonly endMs: number };
  readonly daysTotal: number;
  readonly daySecs: number;
  readonly baseline: { readonly startMs: number; readonly endMs: number };
  readonly connectors: ConnectorImpact[];
  readonly baselineDays: SeriesPoint[];
  readonly cycleDays: SeriesPoint[];
}

/** Each PSP's traffic in the cycle before its own against the one in flight, split by who sent it. 404 without an active contract. */
export async function impactView(deps: ViewDeps, merchantId: string, query: { readonly runId?: string }): Promise<ImpactResponse> {
  const { featureEnabled, record } = await load(deps, merchantId);
  const notActive = () => new SwitchyardError('SY_VOLUME_CONTRACT_NOT_FOUND', { message: `no active volume contract for merchant ${merchantId}` });
  if (record === undefined || !featureEnabled) throw notActive();
  const config = record.algorithm.data;
  const nowMs = deps.clock.now();
  const commitments = shiftToRun(commitmentsOf(config, nowMs), query.runId);
  const first = commitments[0];
  if (first === undefined) throw notActive();
  const plan = await currentPlan(deps, record);
  const planCovers = plan !== undefined && (query.runId === undefined || plan.runId === query.runId);
  const scale = amountScaleOf(config);
  const cycleStartMs = Math.min(...commitments.map((c) => c.periodStartMs));
  const cycleEndMs = Math.max(...commitments.map((c) => c.periodEndMs));
  const cycleLengthMs = Math.max(1, ...commitments.map((c) => c.periodEndMs - c.periodStartMs));
  const connectors: ConnectorImpact[] = [];
  const baselineDays: SeriesPoint[] = [];
  const cycleDays: SeriesPoint[] = [];
  for (const commitment of commitments) {
    const length = commitment.periodEndMs - commitment.periodStartMs;
    const before = await readRowsOrEmpty(
      deps,
      merchantId,
      { ...commitment, periodStartMs: commitment.periodStartMs - length, periodEndMs: commitment.periodStartMs },
      1,
      nowMs,
    );
    const during = await readRowsOrEmpty(deps, merchantId, commitment, 1, nowMs);
    const point = (row: CommitmentDayVolume): SeriesPoint => ({
      connector: row.connector,
      dayIndex: row.dayIndex,
      day: row.dayIndex,
      total: volumeOf(config, row, scale),
      steered: steeredOf(config, row, scale),
    });
    baselineDays.push(...before.map(point));
    cycleDays.push(...during.map(point));
    const sum = (rows: readonly CommitmentDayVolume[], steered: boolean): ImpactSlice => ({
      payments: rows.reduce((total, row) => total + (steered ? row.steeredPayments : row.payments), 0),
      volume: rows.reduce((total, row) => total + (steered ? steeredOf(config, row, scale) : volumeOf(config, row, scale)), 0),
    });
    const withContract = sum(during, false);
    const steered = sum(during, true);
    connectors.push({
      connector: commitment.connector,
      goal: commitment.goal,
      reward: commitment.reward,
      eliminated: planCovers && plan.dropped.some((psp) => psp.connector === commitment.connector),
      steering: planCovers && plan.psps.some((psp) => psp.connector === commitment.connector && psp.needsSteering),
      before: sum(before, false),
      withContract,
      unaided: { payments: Math.max(0, withContract.payments - steered.payments), volume: Math.max(0, withContract.volume - steered.volume) },
      steered,
      ceded: { payments: 0, volume: 0 },
    });
  }
  return {
    merchantId,
    contractSinceMs: record.modifiedAt,
    cycle: { startMs: cycleStartMs, endMs: cycleEndMs },
    daysTotal: Math.max(...commitments.map(daysTotal)),
    daySecs: first.daySecs,
    baseline: { startMs: cycleStartMs - cycleLengthMs, endMs: cycleStartMs },
    connectors,
    baselineDays,
    cycleDays,
  };
}

/** The deployment's demo contracts, each one this deployment would accept. */
export function samplesView(merchantId: string) {
  return { merchantId, samples: volumeContractSamples() };
}

async function readRowsOrEmpty(deps: ViewDeps, merchantId: string, commitment: Commitment, perDay: number, nowMs: number): Promise<CommitmentDayVolume[]> {
  const untilMs = Math.min(commitment.periodEndMs, nowMs + 1);
  if (untilMs <= commitment.periodStartMs) return [];
  try {
    return await deps.analytics.commitmentVolume({
      merchantId,
      connectors: [commitment.connector],
      sinceMs: commitment.periodStartMs,
      untilMs,
      dayMs: (commitment.daySecs * 1000) / perDay,
      steeredApproach,
    });
  } catch (error) {
    if (error instanceof SwitchyardError && error.code === 'SY_ANALYTICS_UNAVAILABLE') return [];
    throw error;
  }
}

/** The commitments as they stood in run `vcr_<ms>`: the current cycle's length, starting there. Anything else: the live cycle. */
function shiftToRun(commitments: Commitment[], runId: string | undefined): Commitment[] {
  const match = runId === undefined ? null : /^vcr_(\d{1,15})$/u.exec(runId);
  if (match === null) return commitments;
  const startMs = Number(match[1]);
  return commitments.map((c) => ({ ...c, periodStartMs: startMs, periodEndMs: startMs + (c.periodEndMs - c.periodStartMs) }));
}

function volumeOf(config: VolumeContractConfig, row: CommitmentDayVolume, scale: number): number {
  return config.metric === 'volume' ? row.payments : row.amount * scale;
}

function steeredOf(config: VolumeContractConfig, row: CommitmentDayVolume, scale: number): number {
  return config.metric === 'volume' ? row.steeredPayments : row.steeredAmount * scale;
}

function daySecsOf(config: VolumeContractConfig): number | null {
  const first = config.volume_contracts[0];
  return first === undefined ? null : first.billing_cycle.type === 'test_minutes' ? 60 : 86_400;
}

function daysTotal(commitment: Commitment): number {
  return Math.max(1, Math.round((commitment.periodEndMs - commitment.periodStartMs) / (commitment.daySecs * 1000)));
}

function rfc3339(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
