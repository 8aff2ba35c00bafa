import type { BillingCycle, VolumeContract, VolumeContractConfig } from '../ports/state/volume-commitment.js';

/** Seconds in a calendar contract day; a `test_minutes` cycle's day lasts 60 s. */
export const secondsPerDay = 86_400;

/** One active contract as the forecaster reads it: the goal, the reward and the cycle in flight. */
export interface Commitment {
  readonly contractId: string;
  readonly connector: string;
  /** Volume owed this cycle, in the document's unit (minor currency units, or a count). */
  readonly goal: number;
  /** What landing the goal earns, in the same unit. */
  readonly reward: number;
  /** How the reward is earned ("0.25% rebate", "lump sum"). */
  readonly rewardNote: string;
  readonly periodStartMs: number;
  readonly periodEndMs: number;
  readonly daySecs: number;
}

/**
 * The document's active contracts at `nowMs`: lumpsum → its target and reward (a percentage reward
 * is the rebate on the target); tiered → the targeted tier's threshold and its rebate on it. The
 * rest of a tier ladder is not interpreted, as on the peer.
 */
export function commitmentsOf(config: VolumeContractConfig, nowMs: number): Commitment[] {
  return config.volume_contracts.filter((contract) => contract.status === 'active').map((contract) => commitmentOf(contract, nowMs));
}

function commitmentOf(contract: VolumeContract, nowMs: number): Commitment {
  const [periodStartMs, periodEndMs] = cycleWindow(contract.billing_cycle, nowMs);
  const daySecs = contract.billing_cycle.type === 'test_minutes' ? 60 : secondsPerDay;
  const base = { contractId: contract.id, connector: contract.connector, periodStartMs, periodEndMs, daySecs };
  if (contract.archetype === 'lumpsum') {
    const { target, reward } = contract.terms;
    return reward.kind === 'flat'
      ? { ...base, goal: target, reward: reward.value.flat_amount, rewardNote: 'lump sum' }
      : { ...base, goal: target, reward: (target * reward.value.rebate_bps) / 10_000, rewardNote: `${reward.value.rebate_bps / 100}% rebate` };
  }
  const tier = contract.terms.tiers.find((entry) => entry.targeted) ?? contract.terms.tiers[0];
  const bps = tier === undefined ? 0 : 'rebate_bps' in tier.rate ? tier.rate.rebate_bps : tier.rate.rate_bps;
  const goal = tier?.threshold ?? 0;
  return { ...base, goal, reward: (goal * bps) / 10_000, rewardNote: `${bps / 100}% rebate` };
}

/** `[start, end)` of the cycle containing `nowMs`: midnights in the contract's zone (test cycles: epoch-aligned minutes). */
export function cycleWindow(cycle: BillingCycle, nowMs: number): readonly [number, number] {
  if (cycle.type === 'test_minutes') {
    const length = cycle.anchor * 60_000;
    const start = Math.floor(nowMs / length) * length;
    return [start, start + length];
  }
  const today = localDate(nowMs, cycle.timezone);
  // Month indices from year 0, so stepping back or forward crosses years by plain arithmetic.
  const monthIndex = today.year * 12 + (today.month - 1);
  const { step, startMonth } = cycleShape(cycle, monthIndex);
  let start = startMonth;
  const opening = (index: number) => midnight(index, cycle.type === 'calendar_month' ? cycle.anchor : 1, cycle.timezone);
  if (opening(start) > nowMs) start -= step;
  return [opening(start), opening(start + step)];
}

/** The cycle's length in months and the month (index) whose opening is the latest at or before this month. */
function cycleShape(cycle: BillingCycle, monthIndex: number): { step: number; startMonth: number } {
  if (cycle.type === 'calendar_month') return { step: 1, startMonth: monthIndex };
  const step = cycle.type === 'calendar_quarter' ? 3 : 12;
  // Quarters open in month anchor (1–3) of each quarter, years in month anchor (1–12); day 1 either way.
  const offset = cycle.anchor - 1;
  const startMonth = monthIndex - ((((monthIndex - offset) % step) + step) % step);
  return { step, startMonth };
}

/** Midnight of day `day` (clamped to the month's length) of month `monthIndex`, in `zone`, as epoch ms. */
function midnight(monthIndex: number, day: number, zone: string): number {
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const wall = Date.UTC(year, month, Math.min(day, lastDay));
  // Two passes: the zone's offset at the guess, then at the corrected instant (DST changes).
  const first = wall - offsetOf(wall, zone);
  return wall - offsetOf(first, zone);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

function partsOf(instantMs: number, zone: string): Record<string, number> {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(instantMs)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return parts;
}

/** The zone's offset from UTC at an instant, ms (wall clock minus UTC). */
function offsetOf(instantMs: number, zone: string): number {
  const p = partsOf(instantMs, zone);
  const wall = Date.UTC(p['year'] ?? 1970, (p['month'] ?? 1) - 1, p['day'] ?? 1, p['hour'] ?? 0, p['minute'] ?? 0, p['second'] ?? 0);
  return wall - (instantMs - (instantMs % 1000));
}

function localDate(instantMs: number, zone: string): { year: number; month: number; day: number } {
  const p = partsOf(instantMs, zone);
  return { year: p['year'] ?? 1970, month: p['month'] ?? 1, day: p['day'] ?? 1 };
}
