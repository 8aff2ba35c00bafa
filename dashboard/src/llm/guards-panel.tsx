import type { LlmGuardsReport } from '../api/server-types';
import { ChartPanel } from '../charts/chart-panel';
import { pivotFields, timeBuckets, type ChartSpec } from '../charts/chart-spec';
import { DataTable } from '../components/data-table';
import { KpiTiles } from '../components/kpi-tiles';

/**
 * Guardrail outcomes of the merchant's model calls (GET /analytics/llm/guards): blocked, masked and
 * logged per API key and guard, and over time in the page's time zone. Counts only: the service never
 * records the matched text. A range without outcomes says so ("—", "No data"), never a row of zeros.
 */
export function GuardsPanel({ report, bucket }: { readonly report: LlmGuardsReport; readonly bucket: (ms: number) => string }) {
  const { totals } = report;
  const none = totals.outcomes === 0;
  const count = (value: number) => (none ? '—' : value.toLocaleString());
  const calls = (value: number) => `${value.toLocaleString()} call${value === 1 ? '' : 's'}`;
  // Every bucket of the window on the axis (a bucket without outcomes had none: 0), but no series at all
  // when the range has none, so the chart shows its empty state rather than a flat line of zeros.
  const overTime: ChartSpec = {
    kind: 'bar',
    stacked: true,
    unit: 'outcomes',
    time: true,
    ...pivotFields(
      report.series,
      (point) => point.bucket_ms,
      { blocked: (point) => point.blocked, masked: (point) => point.masked, logged: (point) => point.logged },
      bucket,
      { labels: timeBuckets(report), missing: 0 },
    ),
  };
  return (
    <section class="panel" aria-labelledby="llm-guards-title" data-testid="llm-guards">
      <h2 id="llm-guards-title">Guardrails</h2>
      <p class="hint">
        What the guards found on model calls and what they did with it (card numbers are masked by default; the rest is set under <code>/guardrails</code>).
        Counts only: the matched text is never recorded.
      </p>
      <KpiTiles
        label="Guard outcome totals"
        tiles={[
          { label: 'Guard outcomes', value: count(totals.outcomes), detail: none ? 'none in this range' : `on ${calls(totals.calls)}` },
          { label: 'Blocked', value: count(totals.blocked), detail: none ? 'none in this range' : `${calls(totals.refused_calls)} refused` },
          { label: 'Masked', value: count(totals.masked) },
          { label: 'Logged', value: count(totals.logged) },
        ]}
      />
      <ChartPanel id="llm-guards-over-time" title="Guard outcomes over time" spec={none ? { ...overTime, series: [] } : overTime} />
      <DataTable
        caption="Guard outcomes per API key and guard"
        rows={report.keys}
        rowKey={(row) => `${row.api_key_id ?? ''}-${row.guard}`}
        empty="No guard outcomes in this range."
        columns={[
          { header: 'API key', cell: (row) => (row.api_key_id === null ? '(no key)' : <code>{row.api_key_id}</code>) },
          { header: 'Guard', cell: (row) => <code>{row.guard}</code> },
          { header: 'Blocked', numeric: true, cell: (row) => row.blocked },
          { header: 'Masked', numeric: true, cell: (row) => row.masked },
          { header: 'Logged', numeric: true, cell: (row) => row.logged },
          { header: 'Values found', numeric: true, cell: (row) => row.found },
          { header: 'Calls refused', numeric: true, cell: (row) => row.refused_calls },
        ]}
      />
    </section>
  );
}
