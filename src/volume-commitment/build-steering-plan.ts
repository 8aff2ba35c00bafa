import type { CommitmentDayVolume } from '../ports/analytics/commitment-volume.js';
import type { DroppedPsp, PspPlan, SteeringPlan, VolumeContractConfig } from '../ports/state/volume-commitment.js';
import type { Commitment } from './commitments-of.js';

/** Contract days of history averaged into a PSP's pace (the peer's PACE_WINDOW_DAYS). */
export const paceWindowDays = 7;
/** A plan steers for this many forecast intervals: one missed run is tolerated, three means the scheduler is gone. */
const freshForIntervals = 3;
/** The smallest slice of a contract day divided by (about a second of one): past it the cycle is over. */
const minDaysLeft = 1 / 86_400;
/** A pace is never averaged over less than an hour of a contract day, so a cycle's first minutes do not read as a flood. */
const minPaceDays = 1 / 24;

/** What one PSP was delivered this cycle, in the document's unit. */
export interface MeasuredPsp {
  readonly achieved: number;
  /** Recent volume per contract day (all of it). */
  readonly pace: number;
  /** Recent volume per contract day that normal routing sent unaided. */
  readonly routingGivesDaily: number;
  /** Steered into this PSP in the contract day now running. */
  readonly steeredToday: number;
}

/**
 * One PSP's delivery from the day rows of its cycle. `scale` turns a decision's amount (major units,
 * as payments carry it) into the document's minor units; `metric: volume` counts payments instead.
 */
export function measure(
  rows: readonly CommitmentDayVolume[],
  commitment: Commitment,
  nowMs: number,
  config: Pick<VolumeContractConfig, 'metric'>,
  scale: number,
): MeasuredPsp {
  const dayMs = commitment.daySecs * 1000;
  const today = Math.max(0, Math.floor((nowMs - commitment.periodStartMs) / dayMs));
  const paceFrom = Math.max(0, today - (paceWindowDays - 1));
  const windowDays = Math.max(minPaceDays, (nowMs - (commitment.periodStartMs + paceFrom * dayMs)) / dayMs);
  const value = (row: CommitmentDayVolume) => (config.metric === 'volume' ? row.payments : row.amount * scale);
  const steered = (row: CommitmentDayVolume) => (config.metric === 'volume' ? row.steeredPayments : row.steeredAmount * scale);
  let achieved = 0;
  let recent = 0;
  let recentUnaided = 0;
  let steeredToday = 0;
  for (const row of rows) {
    if (row.connector !== commitment.connector) continue;
    achieved += value(row);
    if (row.dayIndex >= paceFrom) {
      recent += value(row);
      recentUnaided += value(row) - steered(row);
    }
    if (row.dayIndex === today) steeredToday += steered(row);
  }
  return { achieved, pace: recent / windowDays, routingGivesDaily: Math.max(0, recentUnaided) / windowDays, steeredToday };
}

export interface PlanInputs {
  readonly merchantId: string;
  readonly ruleId: string;
  /** The document's modifiedAt: a plan is only read against the document it was built from. */
  readonly contractAnchorMs: number;
  readonly config: VolumeContractConfig;
  readonly commitments: readonly Commitment[];
  readonly measured: ReadonlyMap<string, MeasuredPsp>;
  readonly nowMs: number;
  /** The merchant's forecast cadence. */
  readonly intervalSeconds: number;
}

/**
 * The steering plan (the peer's controller, same arithmetic): where each commitment stands, which
 * are still worth chasing with the traffic left (the hopeless first, then the lowest rewards, until
 * the period's and the day's budgets fit), who normal routing is not feeding enough, and the share
 * of eligible payments each of those should take for the rest of the contract day. Pure.
 */
export function buildSteeringPlan(inputs: PlanInputs): SteeringPlan {
  const { config, nowMs } = inputs;
  const expected = config.expected_daily_traffic;
  let longestDaysLeft = 0;
  const positions: PspPlan[] = inputs.commitments.map((commitment) => {
    const dayMs = commitment.daySecs * 1000;
    const daysLeft = Math.max(minDaysLeft, (commitment.periodEndMs - nowMs) / dayMs);
    longestDaysLeft = Math.max(longestDaysLeft, daysLeft);
    const measured = inputs.measured.get(commitment.connector);
    const remaining = Math.max(0, commitment.goal - (measured?.achieved ?? 0));
    return {
      connector: commitment.connector,
      reward: commitment.reward,
      remaining,
      neededDaily: remaining / daysLeft,
      routingGivesDaily: measured?.routingGivesDaily ?? 0,
      needsSteering: false,
      steerRate: 0,
      periodStartMs: commitment.periodStartMs,
      periodEndMs: commitment.periodEndMs,
      daySecs: commitment.daySecs,
    };
  });
  const { kept, dropped } = chooseCommitmentsToKeep(positions, expected * longestDaysLeft, expected);
  const psps = kept
    .map((psp): PspPlan => {
      const needsSteering = psp.routingGivesDaily < psp.neededDaily;
      return needsSteering
        ? { ...psp, needsSteering, steerRate: steerRateOf(psp, inputs.measured.get(psp.connector)?.steeredToday ?? 0, expected, nowMs) }
        : psp;
    })
    .sort(byRewardDescending);
  const computedAtMs = nowMs;
  const soonestEnd = Math.min(...psps.map((psp) => psp.periodEndMs), Number.POSITIVE_INFINITY);
  const cycleStart = Math.min(...inputs.commitments.map((commitment) => commitment.periodStartMs), nowMs);
  let measuredDaily = 0;
  for (const entry of inputs.measured.values()) measuredDaily += entry.pace;
  return {
    merchantId: inputs.merchantId,
    runId: `vcr_${cycleStart}`,
    ruleId: inputs.ruleId,
    contractAnchorMs: inputs.contractAnchorMs,
    computedAtMs,
    staleAfterMs: Math.min(computedAtMs + freshForIntervals * inputs.intervalSeconds * 1000, soonestEnd),
    tolerance: config.tolerance_bps / 10_000,
    psps,
    dropped,
    measuredDailyTraffic: inputs.measured.size === 0 ? null : measuredDaily,
  };
}

/** What is still owed today over the traffic still coming today, 0..1 (no counter: each payment rolls against it). */
function steerRateOf(psp: PspPlan, steeredToday: number, expectedDaily: number, nowMs: number): number {
  const dayMs = psp.daySecs * 1000;
  const shortfall = Math.max(0, psp.neededDaily - psp.routingGivesDaily);
  const owed = Math.max(0, shortfall - steeredToday);
  const elapsed = (((nowMs - psp.periodStartMs) % dayMs) + dayMs) % dayMs;
  const coming = expectedDaily * ((dayMs - elapsed) / dayMs);
  return coming <= 0 ? 0 : Math.min(1, Math.max(0, owed / coming));
}

/**
 * Keeps the best-rewarding commitments that can still be met: one whose daily need exceeds the
 * whole day's traffic is dropped outright (its reward rank must not crowd out winnable ones), then
 * the lowest rewards go until the period's and the day's budgets both fit. A dropped PSP is not
 * blocked: normal routing still sends it whatever it would have.
 */
export function chooseCommitmentsToKeep(psps: readonly PspPlan[], trafficLeft: number, dailyTraffic: number): { kept: PspPlan[]; dropped: DroppedPsp[] } {
  const dropped: DroppedPsp[] = [];
  const kept: PspPlan[] = [];
  for (const psp of psps) {
    if (psp.neededDaily > dailyTraffic) {
      dropped.push({
        connector: psp.connector,
        remaining: psp.remaining,
        reward: psp.reward,
        reason: `needs ${psp.neededDaily.toFixed(0)} a day but the merchant only expects ${dailyTraffic.toFixed(0)} a day in total, so this commitment cannot be met and is not chased`,
      });
    } else kept.push(psp);
  }
  kept.sort(byRewardDescending);
  let totalRemaining = kept.reduce((sum, psp) => sum + psp.remaining, 0);
  let totalDaily = kept.reduce((sum, psp) => sum + psp.neededDaily, 0);
  const budgetDropped: DroppedPsp[] = [];
  while ((totalRemaining > trafficLeft || totalDaily > dailyTraffic) && kept.length > 0) {
    const psp = kept.pop() as PspPlan;
    totalRemaining -= psp.remaining;
    totalDaily -= psp.neededDaily;
    budgetDropped.push({
      connector: psp.connector,
      remaining: psp.remaining,
      reward: psp.reward,
      reason: `needs ${psp.remaining.toFixed(0)} more volume for a reward of only ${psp.reward.toFixed(0)}: the lowest-ranked commitment still standing when the traffic ran short, so it was given up to leave room for the ones worth more`,
    });
  }
  dropped.push(...budgetDropped.reverse());
  return { kept, dropped };
}

/** Biggest reward first; equal rewards by name, so the order never changes from run to run. */
function byRewardDescending(a: PspPlan, b: PspPlan): number {
  return b.reward - a.reward || (a.connector < b.connector ? -1 : a.connector > b.connector ? 1 : 0);
}
