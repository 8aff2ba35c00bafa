import { describe, expect, it } from 'vitest';
import {
  calibratedBucketSize,
  calibratedHedgingPercent,
  defaultCalibrationBounds,
  passesDeadband,
  roundTo25,
} from '../../../../src/decision/autopilot/calibration-formulas.js';

describe('autopilot calibration formulas', () => {
  it('rounds to the nearest 25, halves away from zero', () => {
    expect([roundTo25(353.55), roundTo25(37.5), roundTo25(12.5), roundTo25(12.4), roundTo25(0)]).toEqual([350, 50, 25, 0, 0]);
  });

  it('sizes the window as round25(5·√(V/(n−1))) clamped to [100, 2000]', () => {
    expect(calibratedBucketSize(10_000, 3)).toBe(350); // 5·√5000 = 353.6
    expect(calibratedBucketSize(40_000, 2)).toBe(1000); // 5·√40000
    expect(calibratedBucketSize(100, 2)).toBe(100); // 50, clamped up
    expect(calibratedBucketSize(1_000, 5)).toBe(100); // 79 → 75, clamped up
    expect(calibratedBucketSize(1_000_000, 2)).toBe(2000); // 5000, clamped down
    // One gateway or no traffic cannot be sized: the floor.
    expect(calibratedBucketSize(50_000, 1)).toBe(100);
    expect(calibratedBucketSize(0, 3)).toBe(100);
  });

  it('honours other bounds', () => {
    const demo = { ...defaultCalibrationBounds, minBucketSize: 20, maxBucketSize: 200 };
    expect(calibratedBucketSize(10_000, 3, demo)).toBe(200);
    expect(calibratedBucketSize(100, 2, demo)).toBe(50);
  });

  it('hedges what each challenger needs to refill its window in the horizon, 1 % to its share of the 30 % cap', () => {
    expect(calibratedHedgingPercent(350, 10_000, 3)).toBe(7); // 350/10000 = 3.5 % each, two challengers
    expect(calibratedHedgingPercent(1000, 40_000, 2)).toBe(2.5);
    expect(calibratedHedgingPercent(100, 100, 2)).toBe(30); // would need 100 %: capped
    expect(calibratedHedgingPercent(100, 1_000, 5)).toBe(30); // 10 % each, capped at 7.5 % each
    expect(calibratedHedgingPercent(2000, 1_000_000, 2)).toBe(1); // 0.2 %, floored at 1 %
    expect(calibratedHedgingPercent(100, 5_000, 1)).toBe(5); // no challenger: the fallback
  });

  it('hedges more when the reaction horizon is shorter than the lookback', () => {
    const fast = { ...defaultCalibrationBounds, reactionHorizonSeconds: 900 };
    expect(calibratedHedgingPercent(350, 10_000, 3, fast)).toBe(28); // 350/2500 = 14 % each
  });

  it('rewrites only past a 25-step bucket move or a 1-point hedging move', () => {
    const current = { bucketSize: 350, hedgingPercent: 7 };
    expect(passesDeadband(current, { bucketSize: 370, hedgingPercent: 7.5 })).toBe(false);
    expect(passesDeadband(current, { bucketSize: 375, hedgingPercent: 7 })).toBe(true);
    expect(passesDeadband(current, { bucketSize: 350, hedgingPercent: 8 })).toBe(true);
    expect(passesDeadband(current, { bucketSize: 325, hedgingPercent: 6.01 })).toBe(true);
    expect(passesDeadband({ bucketSize: null, hedgingPercent: 7 }, { bucketSize: 350, hedgingPercent: 7 })).toBe(true);
  });
});
