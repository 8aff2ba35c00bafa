/**
 * What a chart shows, independent of how: Chart.js draws it and the table view lists the same
 * numbers, so every chart has a table with exactly its data.
 */
export interface ChartSpec {
  readonly kind: 'line' | 'bar';
  /** X axis labels (time buckets, gateways, models). */
  readonly labels: readonly string[];
  readonly series: readonly { readonly label: string; readonly values: readonly number[] }[];
  readonly stacked?: boolean;
  /** Unit of the values, for the axis and the table header ("decisions", "%", "USD"). */
  readonly unit: string;
}

/** Colours with at least 3:1 contrast on white (WCAG non-text contrast), distinct for common colour blindness. */
export const seriesColours = ['#0b5cad', '#c2410c', '#15803d', '#7e22ce', '#b91c1c', '#0f766e', '#a16207', '#4b5563'];

/** Groups rows into series by `seriesOf`, over the sorted distinct `labelOf` values (missing points are 0). */
export function pivot<T>(
  rows: readonly T[],
  labelOf: (row: T) => number,
  seriesOf: (row: T) => string,
  valueOf: (row: T) => number,
  formatLabel: (label: number) => string,
): Pick<ChartSpec, 'labels' | 'series'> {
  const labels = [...new Set(rows.map(labelOf))].sort((a, b) => a - b);
  const index = new Map(labels.map((label, position) => [label, position]));
  const series = new Map<string, number[]>();
  for (const row of rows) {
    const name = seriesOf(row);
    let values = series.get(name);
    if (values === undefined) {
      values = labels.map(() => 0);
      series.set(name, values);
    }
    const position = index.get(labelOf(row))!;
    values[position] = (values[position] ?? 0) + valueOf(row);
  }
  return { labels: labels.map(formatLabel), series: [...series].map(([label, values]) => ({ label, values })) };
}

/** One series per named field of wide rows (calls and errors of each bucket…), labelled by `labelOf`. */
export function pivotFields<T>(
  rows: readonly T[],
  labelOf: (row: T) => number,
  fields: Readonly<Record<string, (row: T) => number>>,
  formatLabel: (label: number) => string,
): Pick<ChartSpec, 'labels' | 'series'> {
  const long = rows.flatMap((row) => Object.entries(fields).map(([series, valueOf]) => ({ label: labelOf(row), series, value: valueOf(row) })));
  return pivot(
    long,
    (row) => row.label,
    (row) => row.series,
    (row) => row.value,
    formatLabel,
  );
}

/** A time bucket as the operator's local clock shows it (date added when the range spans days). */
export function formatBucket(ms: number, withDate: boolean): string {
  const date = new Date(ms);
  const time = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return withDate ? `${date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} ${time}` : time;
}
