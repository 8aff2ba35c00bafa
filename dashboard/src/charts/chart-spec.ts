import { formatAxisTime } from '../time/time-zone';

/**
 * What a chart shows, independent of how: Chart.js draws it and the table view lists the same
 * numbers, so every chart has a table with exactly its data.
 */
export interface ChartSpec {
  readonly kind: 'line' | 'bar';
  /** X axis labels (time buckets, gateways, models). */
  readonly labels: readonly string[];
  /** null = no data at that label: a gap in a line, no bar, "—" in the table (never drawn as 0). */
  readonly series: readonly { readonly label: string; readonly values: readonly (number | null)[] }[];
  readonly stacked?: boolean;
  /** Unit of the values, for the axis and the table header ("decisions", "%", "USD"). */
  readonly unit: string;
  /** The labels are time buckets in the operator's time zone: the axis and the table header name it. */
  readonly time?: boolean;
}

/** Colours with at least 3:1 contrast on white (WCAG non-text contrast), distinct for common colour blindness. */
export const seriesColours = ['#0b5cad', '#c2410c', '#15803d', '#7e22ce', '#b91c1c', '#0f766e', '#a16207', '#4b5563'];

export interface PivotOptions {
  /**
   * Every label the axis must show, data or not (a time window's buckets): an empty bucket stays
   * on the axis instead of vanishing. Labels of rows outside the list are kept too.
   */
  readonly labels?: readonly number[];
  /** What a series has where it has no row: 0 for counts (nothing happened), null for states and rates (no data). Default 0. */
  readonly missing?: 0 | null;
  /** How rows of one series and label combine: summed (counts), or the last one wins (a score is a state). Default sum. */
  readonly combine?: 'sum' | 'last';
}

/** Groups rows into series by `seriesOf`, over the sorted distinct `labelOf` values (and `options.labels`). */
export function pivot<T>(
  rows: readonly T[],
  labelOf: (row: T) => number,
  seriesOf: (row: T) => string,
  valueOf: (row: T) => number,
  formatLabel: (label: number) => string,
  options: PivotOptions = {},
): Pick<ChartSpec, 'labels' | 'series'> {
  const missing = options.missing === undefined ? 0 : options.missing;
  const labels = [...new Set([...(options.labels ?? []), ...rows.map(labelOf)])].sort((a, b) => a - b);
  const index = new Map(labels.map((label, position) => [label, position]));
  const series = new Map<string, (number | null)[]>();
  for (const row of rows) {
    const name = seriesOf(row);
    let values = series.get(name);
    if (values === undefined) {
      values = labels.map(() => missing);
      series.set(name, values);
    }
    const position = index.get(labelOf(row))!;
    values[position] = options.combine === 'last' ? valueOf(row) : (values[position] ?? 0) + valueOf(row);
  }
  return { labels: labels.map(formatLabel), series: [...series].map(([label, values]) => ({ label, values })) };
}

/** One series per named field of wide rows (calls and errors of each bucket…), labelled by `labelOf`. */
export function pivotFields<T>(
  rows: readonly T[],
  labelOf: (row: T) => number,
  fields: Readonly<Record<string, (row: T) => number>>,
  formatLabel: (label: number) => string,
  options: PivotOptions = {},
): Pick<ChartSpec, 'labels' | 'series'> {
  const long = rows.flatMap((row) => Object.entries(fields).map(([series, valueOf]) => ({ label: labelOf(row), series, value: valueOf(row) })));
  return pivot(
    long,
    (row) => row.label,
    (row) => row.series,
    (row) => row.value,
    formatLabel,
    options,
  );
}

/** Every bucket start of a window (`bucket_ms` wide, aligned to multiples of it as the API buckets), empty ones included. */
export function timeBuckets(window: { readonly start_ms: number; readonly end_ms: number; readonly bucket_ms: number }): number[] {
  const { start_ms: start, end_ms: end, bucket_ms: bucket } = window;
  if (bucket <= 0 || end < start) return [];
  const buckets: number[] = [];
  // Bounded: the presets have at most 60 buckets; a custom window could ask for many more.
  for (let at = Math.floor(start / bucket) * bucket; at <= end && buckets.length < 2000; at += bucket) buckets.push(at);
  return buckets;
}

/** A time bucket in the operator's chosen time zone (date added when the range spans days); the chart's axis names the zone. */
export function formatBucket(ms: number, withDate: boolean): string {
  return formatAxisTime(ms, withDate);
}
