/**
 * The autopilot's two formulas (decision-engine's SR auto-calibration, same numbers): a segment's
 * success-rate window length from its traffic, and the hedging share that keeps every non-leading
 * gateway's window fresh. Pure: traffic in, settings out.
 */

export interface CalibrationBounds {
  /** Smallest window written (outcomes). Default 100. */
  readonly minBucketSize: number;
  /** Largest window written. Default 2,000. */
  readonly maxBucketSize: number;
  /** Total hedging never exceeds this (percent). Default 30. */
  readonly maxHedgingPercent: number;
  /** The analytics window the volume was counted over (seconds). Default 3,600. */
  readonly lookbackSeconds: number;
  /** How fast a lagging gateway's window must refresh (seconds); defaults to the lookback. */
  readonly reactionHorizonSeconds: number;
  /** Segments with fewer decisions in the lookback are not calibrated (cold start). Default 100. */
  readonly minVolume: number;
}

export const defaultCalibrationBounds: CalibrationBounds = {
  minBucketSize: 100,
  maxBucketSize: 2000,
  maxHedgingPercent: 30,
  lookbackSeconds: 3600,
  reactionHorizonSeconds: 3600,
  minVolume: 100,
};

/** A bucket size is rewritten only when it moves at least this far (one rounding step). */
export const bucketDeadband = 25;
/** A hedging percent is rewritten only when it moves at least this many percentage points. */
export const hedgingDeadbandPoints = 1;
/** Hedging proposed when a segment cannot be sized (fewer than two gateways or no volume). */
const fallbackHedgingPercent = 5;

/** Rounds to the nearest multiple of 25 (halves away from zero, as the peer's `f64::round`). */
export function roundTo25(value: number): number {
  const steps = Math.sign(value) * Math.round(Math.abs(value) / 25);
  return steps * 25 + 0;
}

/**
 * B = round₂₅(5·√(V / (n − 1))) clamped to [min, max]: V decisions over n gateways. The window
 * grows with the square root of each challenger's share of traffic, so a busy segment gets a long,
 * steady window and a quiet one a short, reactive one.
 */
export function calibratedBucketSize(volume: number, gateways: number, bounds: CalibrationBounds = defaultCalibrationBounds): number {
  if (gateways < 2 || volume <= 0) return bounds.minBucketSize;
  const raw = roundTo25(5 * Math.sqrt(volume / (gateways - 1)));
  return Math.min(bounds.maxBucketSize, Math.max(bounds.minBucketSize, raw));
}

/**
 * Total hedging percent: each of the n − 1 non-leading gateways gets the share of traffic it needs
 * to refill a window of `bucketSize` within the reaction horizon (bucket / volume in the horizon),
 * at least 1 % and at most its part of the cap; the total is capped and rounded to 2 decimals.
 */
export function calibratedHedgingPercent(bucketSize: number, volume: number, gateways: number, bounds: CalibrationBounds = defaultCalibrationBounds): number {
  if (gateways < 2 || volume <= 0) return fallbackHedgingPercent;
  const challengers = gateways - 1;
  const perGatewayCap = bounds.maxHedgingPercent / 100 / challengers;
  const volumeInHorizon = volume * (bounds.reactionHorizonSeconds / bounds.lookbackSeconds);
  const refreshShare = volumeInHorizon > 0 ? bucketSize / volumeInHorizon : perGatewayCap;
  const perGateway = Math.max(0.01, Math.min(refreshShare, perGatewayCap));
  const total = Math.min(perGateway * challengers * 100, bounds.maxHedgingPercent);
  return Math.round(total * 100) / 100;
}

/** True when moving from `current` to `proposed` passes a deadband (a missing current value always does). */
export function passesDeadband(
  current: { readonly bucketSize: number | null; readonly hedgingPercent: number | null },
  proposed: { readonly bucketSize: number; readonly hedgingPercent: number },
): boolean {
  const bucketMoved = current.bucketSize === null || Math.abs(current.bucketSize - proposed.bucketSize) >= bucketDeadband;
  const hedgingMoved = current.hedgingPercent === null || Math.abs(current.hedgingPercent - proposed.hedgingPercent) >= hedgingDeadbandPoints;
  return bucketMoved || hedgingMoved;
}
