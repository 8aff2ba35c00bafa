import type { AnalyticsRange } from '../ports/analytics/analytics-query.js';

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;

/** Each preset's look-back and series bucket (decision-engine §7.3: 15m → 1 min … 1w → 1 day). */
export const analyticsRanges: Readonly<Record<AnalyticsRange, { readonly durationMs: number; readonly bucketMs: number }>> = {
  '15m': { durationMs: 15 * minuteMs, bucketMs: minuteMs },
  '1h': { durationMs: hourMs, bucketMs: 5 * minuteMs },
  '12h': { durationMs: 12 * hourMs, bucketMs: hourMs },
  '1d': { durationMs: dayMs, bucketMs: hourMs },
  '1w': { durationMs: 7 * dayMs, bucketMs: dayMs },
};

export const defaultAnalyticsRange: AnalyticsRange = '1h';

/**
 * Longest look-back a custom window may reach: ~18 months (548 days), the reference's table TTL,
 * so a custom window never asks for data retention has already dropped.
 */
export const maxLookBackMs = 548 * dayMs;

export function isAnalyticsRange(value: string): value is AnalyticsRange {
  return Object.hasOwn(analyticsRanges, value);
}

/** Bucket width for a custom window of `spanMs` (≤15 min → minute, ≤1 h → 5 min, ≤1 d → hour, else day). */
export function bucketForSpan(spanMs: number): number {
  if (spanMs <= 15 * minuteMs) return minuteMs;
  if (spanMs <= hourMs) return 5 * minuteMs;
  if (spanMs <= dayMs) return hourMs;
  return dayMs;
}

export interface AnalyticsWindow {
  readonly range: AnalyticsRange | 'custom';
  readonly startMs: number;
  readonly endMs: number;
  readonly bucketMs: number;
}

/**
 * Resolves the time window. `startMs`/`endMs` replace the preset only when both are given and
 * end > start (otherwise they are ignored, as the reference does); the end is clamped to now and
 * the start to `now - maxLookBackMs`.
 */
export function resolveAnalyticsWindow(input: {
  readonly range: AnalyticsRange | undefined;
  readonly startMs: number | undefined;
  readonly endMs: number | undefined;
  readonly nowMs: number;
}): AnalyticsWindow {
  const { startMs, endMs, nowMs } = input;
  if (startMs !== undefined && endMs !== undefined && endMs > startMs) {
    const end = Math.min(endMs, nowMs);
    const start = Math.max(startMs, nowMs - maxLookBackMs);
    return { range: 'custom', startMs: start, endMs: end, bucketMs: bucketForSpan(Math.max(0, end - start)) };
  }
  const range = input.range ?? defaultAnalyticsRange;
  const preset = analyticsRanges[range];
  return { range, startMs: nowMs - preset.durationMs, endMs: nowMs, bucketMs: preset.bucketMs };
}
