import type { ParsedAnalyticsQuery } from './analytics-query.js';

/**
 * Response bodies of /analytics/llm/* (no 1.4.x counterpart; snake_case like the payment
 * analytics). Money is USD; times are milliseconds.
 */

interface LlmWindow {
  readonly merchant_id: string;
  readonly start_ms: number;
  readonly end_ms: number;
}

export interface LlmUsageTotals {
  readonly calls: number;
  readonly errors: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cost_usd: number;
}

export interface LlmOverviewReport extends LlmWindow, LlmUsageTotals {
  readonly total_tokens: number;
  readonly error_rate: number;
  readonly avg_latency_ms: number;
  readonly fallback_calls: number;
  readonly providers: readonly (LlmUsageTotals & { readonly provider: string })[];
}

export interface LlmUsageReport extends LlmWindow {
  readonly bucket_ms: number;
  readonly series: readonly (LlmUsageTotals & { readonly bucket_ms: number; readonly provider: string; readonly model: string })[];
}

export interface LlmLatencyRow {
  readonly provider: string;
  readonly model: string;
  readonly calls: number;
  readonly p50_ms: number;
  readonly p95_ms: number;
  readonly p99_ms: number;
  /** Calls that streamed (the time-to-first-token figures are over these; null when none). */
  readonly streams: number;
  readonly ttft_p50_ms: number | null;
  readonly ttft_p95_ms: number | null;
  readonly ttft_p99_ms: number | null;
}

export interface LlmLatencyReport extends LlmWindow {
  readonly models: readonly LlmLatencyRow[];
}

export interface LlmErrorsReport extends LlmWindow {
  readonly total_errors: number;
  readonly error_rate: number;
  readonly errors: readonly { readonly error_class: string; readonly provider: string; readonly model: string; readonly count: number }[];
}

/** Rows as the engines return them (numbers, possibly as numeric strings from older servers). */
export type Numeric = number | string;

export function windowOf(query: ParsedAnalyticsQuery): LlmWindow {
  return { merchant_id: query.merchantId, start_ms: query.startMs, end_ms: query.endMs };
}

export function num(value: Numeric | null | undefined): number {
  const parsed = Number(value ?? 0);
  return Number.isFinite(parsed) ? parsed : 0;
}

/** Money to a millionth of a dollar: sums of floats otherwise differ in the last digits between engines. */
export function usd(value: Numeric | null | undefined): number {
  return Math.round(num(value) * 1_000_000) / 1_000_000;
}

export function rate(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}

export function totalsOf(row: Readonly<Record<string, Numeric>> | undefined): LlmUsageTotals {
  return { calls: num(row?.['calls']), errors: num(row?.['errors']), input_tokens: num(row?.['input_tokens']), output_tokens: num(row?.['output_tokens']), cost_usd: usd(row?.['cost_usd']) };
}
