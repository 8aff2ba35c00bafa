import { useState } from 'preact/hooks';
import type { AnalyticsRange } from '../api/analytics-api';
import { ChartPanel } from '../charts/chart-panel';
import { formatBucket, pivot, pivotFields, type ChartSpec } from '../charts/chart-spec';
import { AsyncView } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { KpiTiles, percent } from '../components/kpi-tiles';
import { livePollMs, RangePicker, spansDays } from '../components/range-picker';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';

/** Model calls of the merchant: volume, tokens, cost, latency and errors (the /analytics/llm/* reads). */
export function LlmUsagePage() {
  const { api, session } = useDashboard();
  const [range, setRange] = useState<AnalyticsRange>('1h');
  const [live, setLive] = useState(true);
  const { resource, reload } = useResource(
    async (signal) => {
      const query = { range };
      const [overview, usage, latency, errors] = await Promise.all([
        api.analytics.llmOverview(query, signal),
        api.analytics.llmUsage(query, signal),
        api.analytics.llmLatency(query, signal),
        api.analytics.llmErrors(query, signal),
      ]);
      return { overview, usage, latency, errors };
    },
    [range, session.merchantId],
    live ? livePollMs : undefined,
  );
  const bucket = (ms: number) => formatBucket(ms, spansDays(range));

  return (
    <>
      <RangePicker range={range} onRange={setRange} live={live} onLive={setLive} />
      <AsyncView resource={resource} label="LLM usage" onRetry={reload}>
        {({ overview, usage, latency, errors }) => {
          const modelOf = (point: { provider: string; model: string }) => `${point.provider}/${point.model}`;
          const callsSpec: ChartSpec = {
            kind: 'bar',
            stacked: true,
            unit: 'calls',
            ...pivot(
              usage.series,
              (point) => point.bucket_ms,
              modelOf,
              (point) => point.calls,
              bucket,
            ),
          };
          const costSpec: ChartSpec = {
            kind: 'line',
            unit: 'USD',
            ...pivot(
              usage.series,
              (point) => point.bucket_ms,
              (point) => point.provider,
              (point) => point.cost_usd,
              bucket,
            ),
          };
          const tokensSpec: ChartSpec = {
            kind: 'bar',
            stacked: true,
            unit: 'tokens',
            ...pivotFields(usage.series, (point) => point.bucket_ms, { input: (point) => point.input_tokens, output: (point) => point.output_tokens }, bucket),
          };
          const latencySpec: ChartSpec = {
            kind: 'bar',
            unit: 'ms',
            labels: latency.models.map(modelOf),
            series: [
              { label: 'p50', values: latency.models.map((row) => row.p50_ms) },
              { label: 'p95', values: latency.models.map((row) => row.p95_ms) },
              { label: 'p99', values: latency.models.map((row) => row.p99_ms) },
            ],
          };
          return (
            <>
              <KpiTiles
                label="Model call totals"
                tiles={[
                  { label: 'Calls', value: String(overview.calls) },
                  { label: 'Success rate', value: overview.calls === 0 ? '—' : percent(1 - overview.error_rate) },
                  { label: 'Error rate', value: percent(overview.error_rate) },
                  {
                    label: 'Tokens',
                    value: overview.total_tokens.toLocaleString(),
                    detail: `${overview.input_tokens.toLocaleString()} in / ${overview.output_tokens.toLocaleString()} out`,
                  },
                  { label: 'Cost', value: `$${overview.cost_usd.toFixed(4)}` },
                  { label: 'Average latency', value: `${Math.round(overview.avg_latency_ms)} ms` },
                  { label: 'Fallback calls', value: String(overview.fallback_calls) },
                ]}
              />
              <div class="grid-2">
                <ChartPanel id="llm-calls-by-model" title="Calls by model" spec={callsSpec} />
                <ChartPanel id="llm-cost" title="Cost by provider" spec={costSpec} />
                <ChartPanel id="llm-tokens" title="Tokens" spec={tokensSpec} />
                <ChartPanel id="llm-latency" title="Latency by model" spec={latencySpec} />
              </div>
              <section class="panel" aria-labelledby="llm-errors-title">
                <h2 id="llm-errors-title">Errors ({errors.total_errors})</h2>
                <DataTable
                  caption="Failed model calls by error class"
                  rows={errors.errors}
                  rowKey={(row, index) => `${row.error_class}-${row.provider}-${row.model}-${index}`}
                  empty="No failed calls in this range."
                  columns={[
                    { header: 'Error class', cell: (row) => <code>{row.error_class}</code> },
                    { header: 'Provider', cell: (row) => row.provider },
                    { header: 'Model', cell: (row) => row.model },
                    { header: 'Count', numeric: true, cell: (row) => row.count },
                  ]}
                />
              </section>
              <section class="panel" aria-labelledby="llm-providers-title">
                <h2 id="llm-providers-title">By provider</h2>
                <DataTable
                  caption="Calls, tokens and cost per provider"
                  rows={overview.providers}
                  rowKey={(row) => row.provider}
                  empty="No calls in this range."
                  columns={[
                    { header: 'Provider', cell: (row) => row.provider },
                    { header: 'Calls', numeric: true, cell: (row) => row.calls },
                    { header: 'Errors', numeric: true, cell: (row) => row.errors },
                    { header: 'Input tokens', numeric: true, cell: (row) => row.input_tokens },
                    { header: 'Output tokens', numeric: true, cell: (row) => row.output_tokens },
                    { header: 'Cost (USD)', numeric: true, cell: (row) => row.cost_usd.toFixed(6) },
                  ]}
                />
              </section>
            </>
          );
        }}
      </AsyncView>
    </>
  );
}
