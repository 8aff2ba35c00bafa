import type { RoutingEventsQuery } from '../../ports/analytics/routing-events.js';
import { analyticsRanges, defaultAnalyticsRange, isAnalyticsRange } from '../analytics-window.js';
import { type AnalyticsQueryIssue, createReader } from '../parse-analytics-query.js';

const secondMs = 1000;
const minuteMs = 60 * secondMs;
const hourMs = 60 * minuteMs;

/** decision-engine's routing-events bounds (analytics/models.rs, ROUTING_EVENTS_* and the defaults beside them). */
export const routingEventsBounds = {
  /** `bucket` values and their widths; 5 min is the default. */
  buckets: { '1s': secondMs, '1m': minuteMs, '5m': 5 * minuteMs } as Readonly<Record<string, number>>,
  defaultBucketMs: 5 * minuteMs,
  /** Longest window scanned: a week, an hour with 1 s buckets (snapshot rows are per payment). */
  maxWindowMs: 7 * 24 * hourMs,
  maxSecondBucketWindowMs: hourMs,
  defaultMinTransactionCount: 10,
  defaultMinScoreDelta: 0.01,
  defaultLimit: 50,
  maxLimit: 200,
} as const;

export type RoutingEventsParseResult =
  | { readonly ok: true; readonly query: RoutingEventsQuery }
  | { readonly ok: false; readonly issues: readonly AnalyticsQueryIssue[] };

const numberPattern = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Turns GET /analytics/routing-events' query string into a {@link RoutingEventsQuery}. Pure: the
 * merchant and clock come in `context`.
 *
 * As the reference: `start_ms`/`end_ms` replace the preset only when both are given with
 * end > start (then `range` answers `custom`); the end is clamped to now; the window is cut to a
 * week (an hour with `bucket=1s`); `limit` is clamped to 1..200, `min_transaction_count` and
 * `min_score_delta` raised to 0. `tolerance_pp` is accepted and unused: the reference's current
 * line turns auth-band events off (routes/analytics.rs `resolve_auth_band`).
 *
 * Stricter than the reference, like the other analytics reads: a `range` outside the presets, a
 * `bucket` other than 1s/1m/5m, or a malformed number is refused (400 naming the parameter)
 * rather than silently replaced by a default.
 */
export function parseRoutingEventsQuery(
  raw: Readonly<Record<string, unknown>>,
  context: { readonly merchantId: string; readonly nowMs: number },
): RoutingEventsParseResult {
  const issues: AnalyticsQueryIssue[] = [];
  const reader = createReader(raw, issues);
  const decimal = (name: string): number | undefined => {
    const text = reader.text(name);
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!numberPattern.test(text.trim()) || !Number.isFinite(value)) {
      issues.push({ parameter: name, message: `${name} must be a number` });
      return undefined;
    }
    return value;
  };

  const rangeText = reader.text('range');
  if (rangeText !== undefined && !isAnalyticsRange(rangeText)) {
    issues.push({ parameter: 'range', message: `range must be one of ${Object.keys(analyticsRanges).join(', ')}` });
  }
  const startMs = reader.epochMs('start_ms');
  const endMs = reader.epochMs('end_ms');
  const minTransactionCount = reader.integer('min_transaction_count');
  const minScoreDelta = decimal('min_score_delta');
  decimal('tolerance_pp');
  const limit = reader.integer('limit');
  const bucketText = reader.text('bucket');
  const bucketMs = bucketText === undefined ? routingEventsBounds.defaultBucketMs : routingEventsBounds.buckets[bucketText];
  if (bucketMs === undefined) issues.push({ parameter: 'bucket', message: 'bucket must be one of 1s, 1m, 5m' });
  const paymentMethodType = reader.text('payment_method_type') ?? null;
  const paymentMethod = reader.text('payment_method') ?? null;
  if (issues.length > 0 || bucketMs === undefined) return { ok: false, issues };

  const custom = startMs !== undefined && endMs !== undefined && endMs > startMs;
  const end = Math.min(custom ? endMs : context.nowMs, context.nowMs);
  const range = rangeText !== undefined && isAnalyticsRange(rangeText) ? rangeText : defaultAnalyticsRange;
  const maxWindowMs = bucketMs === secondMs ? routingEventsBounds.maxSecondBucketWindowMs : routingEventsBounds.maxWindowMs;
  const start = Math.max(custom && startMs < end ? startMs : end - analyticsRanges[range].durationMs, end - maxWindowMs);
  return {
    ok: true,
    query: {
      merchantId: context.merchantId,
      range: custom ? 'custom' : range,
      startMs: Math.max(0, start),
      endMs: end,
      bucketMs,
      paymentMethodType,
      paymentMethod,
      minTransactionCount: Math.max(0, minTransactionCount ?? routingEventsBounds.defaultMinTransactionCount),
      minScoreDelta: Math.max(0, minScoreDelta ?? routingEventsBounds.defaultMinScoreDelta),
      limit: Math.min(routingEventsBounds.maxLimit, Math.max(1, limit ?? routingEventsBounds.defaultLimit)),
      nowMs: context.nowMs,
    },
  };
}
