import type { SuccessRateConfig, SuccessRateSubLevelConfig } from '../../generated/schema-types.js';
import type { SegmentTraffic } from '../../ports/analytics/segment-traffic.js';
import type { AutopilotSegment, AutopilotSegmentChange, AutopilotSettings } from '../../ports/state/autopilot-runs.js';
import { type CalibrationBounds, calibratedBucketSize, calibratedHedgingPercent, passesDeadband } from './calibration-formulas.js';

/** The provenance tag on every sub-level entry the autopilot writes (and the only ones it edits). */
export const autopilotSource = 'autopilot';

/** One qualifying segment: who holds it and what the formulas propose for it. */
export interface SegmentPlan {
  readonly segment: AutopilotSegment;
  readonly volume: number;
  readonly gateways: number;
  /**
   * `human`: a human-authored entry equal to or broader than the segment sets a knob; the autopilot
   * stays out (and drops an entry of its own there, which would out-rank the human one).
   */
  readonly holder: 'human' | 'autopilot' | 'none';
  /** The autopilot entry's current values (null without one). */
  readonly current: AutopilotSettings | null;
  readonly proposal: AutopilotSettings;
}

/** Segments with enough traffic and at least two gateways (fewer cannot be compared). */
export function qualifyingSegments(traffic: readonly SegmentTraffic[], bounds: CalibrationBounds): SegmentTraffic[] {
  return traffic.filter((segment) => segment.volume >= bounds.minVolume && segment.gateways >= 2);
}

export function segmentOf(traffic: SegmentTraffic): AutopilotSegment {
  return {
    paymentMethodType: traffic.paymentMethodType,
    paymentMethod: traffic.paymentMethod,
    cardNetwork: traffic.cardNetwork,
    currency: traffic.currency,
    country: traffic.country,
    authType: traffic.authType,
  };
}

const normalised = (value: string | null | undefined): string | null => (value == null || value === '' ? null : value.toUpperCase());

/** The narrowing fields of a segment, in sub-level names (payment-method type apart). */
function narrowing(segment: AutopilotSegment): readonly [keyof SuccessRateSubLevelConfig, string | null][] {
  return [
    ['paymentMethod', segment.paymentMethod],
    ['cardNetwork', segment.cardNetwork],
    ['currency', segment.currency],
    ['country', segment.country],
    ['authType', segment.authType],
  ];
}

/** The entry is exactly this segment (case-insensitive; unset = not narrowed; never a BIN entry). */
export function entryIsSegment(entry: SuccessRateSubLevelConfig, segment: AutopilotSegment): boolean {
  if (normalised(entry.paymentMethodType) !== normalised(segment.paymentMethodType) || normalised(entry.cardIsIn) !== null) return false;
  return narrowing(segment).every(([field, value]) => normalised(entry[field] as string | null | undefined) === normalised(value));
}

/** The entry applies to every payment of the segment: same type, and each field it sets equals the segment's. */
function entryCovers(entry: SuccessRateSubLevelConfig, segment: AutopilotSegment): boolean {
  if (normalised(entry.paymentMethodType) !== normalised(segment.paymentMethodType) || normalised(entry.cardIsIn) !== null) return false;
  return narrowing(segment).every(([field, value]) => {
    const wanted = normalised(entry[field] as string | null | undefined);
    return wanted === null || wanted === normalised(value);
  });
}

const isHuman = (entry: SuccessRateSubLevelConfig) => entry.source !== autopilotSource;
const setsAKnob = (entry: SuccessRateSubLevelConfig) => entry.bucketSize != null || entry.hedgingPercent != null;

/** What the formulas propose for each qualifying segment, and who holds it now. */
export function planSegments(config: SuccessRateConfig | undefined, traffic: readonly SegmentTraffic[], bounds: CalibrationBounds): SegmentPlan[] {
  const entries = config?.subLevelInputConfig ?? [];
  return qualifyingSegments(traffic, bounds).map((row) => {
    const segment = segmentOf(row);
    const bucketSize = calibratedBucketSize(row.volume, row.gateways, bounds);
    const proposal = { bucketSize, hedgingPercent: calibratedHedgingPercent(bucketSize, row.volume, row.gateways, bounds) };
    const humanHeld = entries.some((entry) => isHuman(entry) && setsAKnob(entry) && entryCovers(entry, segment));
    const own = entries.find((entry) => !isHuman(entry) && entryIsSegment(entry, segment));
    // An own entry missing a knob counts as no current value: the run completes it.
    const current = own?.bucketSize != null && own.hedgingPercent != null ? { bucketSize: own.bucketSize, hedgingPercent: own.hedgingPercent } : null;
    return { segment, volume: row.volume, gateways: row.gateways, holder: humanHeld ? 'human' : own !== undefined ? 'autopilot' : 'none', current, proposal };
  });
}

/** Settings per plan (same order as the plans); null keeps the segment as it is. */
export type SegmentSettings = readonly (AutopilotSettings | null)[];

/**
 * Writes `settings` into a copy of `config`: an autopilot entry per segment (created, or updated
 * when a deadband is passed), human-held segments and every other entry and field left as they
 * are. Returns the whole next document (the caller writes it in one put) and what happened per segment.
 */
export function applySettings(
  config: SuccessRateConfig | undefined,
  plans: readonly SegmentPlan[],
  settings: SegmentSettings,
): { readonly config: SuccessRateConfig; readonly changes: AutopilotSegmentChange[]; readonly changed: boolean } {
  const entries: SuccessRateSubLevelConfig[] = [...(config?.subLevelInputConfig ?? [])];
  const changes: AutopilotSegmentChange[] = [];
  let removed = false;
  plans.forEach((plan, index) => {
    const chosen = settings[index] ?? null;
    const base = { segment: plan.segment, volume: plan.volume, gateways: plan.gateways, proposed: plan.proposal };
    const before = plan.current;
    const at = entries.findIndex((entry) => !isHuman(entry) && entryIsSegment(entry, plan.segment));
    if (plan.holder === 'human') {
      // An older autopilot entry would out-rank the human one (it is more specific): it goes.
      if (at !== -1) {
        entries.splice(at, 1);
        removed = true;
      }
      changes.push({ ...base, action: 'human', before, after: null });
      return;
    }
    const current = { bucketSize: before?.bucketSize ?? null, hedgingPercent: before?.hedgingPercent ?? null };
    if (chosen === null || (at !== -1 && !passesDeadband(current, chosen))) {
      changes.push({ ...base, action: 'unchanged', before, after: before });
      return;
    }
    if (at === -1) {
      entries.push(newEntry(plan.segment, chosen));
      changes.push({ ...base, action: 'created', before: null, after: chosen });
    } else {
      entries[at] = { ...entries[at], bucketSize: chosen.bucketSize, hedgingPercent: chosen.hedgingPercent, source: autopilotSource };
      changes.push({ ...base, action: 'updated', before, after: chosen });
    }
  });
  const changed = removed || changes.some((change) => change.action === 'created' || change.action === 'updated');
  return { config: changed ? { ...config, subLevelInputConfig: entries } : (config ?? {}), changes, changed };
}

function newEntry(segment: AutopilotSegment, settings: AutopilotSettings): SuccessRateSubLevelConfig {
  const entry: SuccessRateSubLevelConfig = {
    paymentMethodType: segment.paymentMethodType,
    paymentMethod: segment.paymentMethod,
    bucketSize: settings.bucketSize,
    hedgingPercent: settings.hedgingPercent,
    source: autopilotSource,
  };
  if (segment.cardNetwork !== null) entry.cardNetwork = segment.cardNetwork;
  if (segment.currency !== null) entry.currency = segment.currency;
  if (segment.country !== null) entry.country = segment.country;
  if (segment.authType !== null) entry.authType = segment.authType;
  return entry;
}
