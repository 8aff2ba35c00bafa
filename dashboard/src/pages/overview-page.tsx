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

interface TopError {
  readonly source: string;
  readonly code: string;
  readonly message: string;
  readonly count: number;
}

/** Both halves at a glance: decisions and model calls, their success and error rates, gateway share, score trend, top errors. */
export function OverviewPage() {
  const { api, session } = useDashboard();
  const [range, setRange] = useState<AnalyticsRange>('1h');
  const [live, setLive] = useState(true);
  const { resource, reload } = useResource(
    async (signal) => {
      const query = { range };
      const [decisions, overview, routing, llm, usage, llmErrors] = await Promise.all([
        api.analytics.decisions(query, signal),
        api.analytics.overview(query, signal),
        api.analytics.routingStats(query, signal),
        api.analytics.llmOverview(query, signal),
        api.analytics.llmUsage(query, signal),
        api.analytics.llmErrors(query, signal),
      ]);
      return { decisions, overview, routing, llm, usage, llmErrors };
    },
    [range, session.merchantId],
    live ? livePollMs : undefined,
  );
  const withDate = spansDays(range);
  const bucket = (ms: number) => formatBucket(ms, withDate);

  return (
    <>
      <RangePicker range={range} onRange={setRange} live={live} onLive={setLive} />
      <AsyncView resource={resource} label="the overview" onRetry={reload}>
        {({ decisions, overview, routing, llm, usage, llmErrors }) => {
          const decisionCount = Number(decisions.tiles.find((tile) => tile.label === 'Decisions')?.value ?? 0);
          const decisionErrorRate = Number.parseFloat(decisions.tiles.find((tile) => tile.label === 'Error rate')?.value ?? '0') / 100;
          const decisionsSpec: ChartSpec = {
            kind: 'bar',
            stacked: true,
            unit: 'decisions',
            ...pivot(
              decisions.series,
              (row) => row.bucket_ms,
              (row) => row.routing_approach ?? 'unknown',
              (row) => row.count,
              bucket,
            ),
          };
          const llmSpec: ChartSpec = {
            kind: 'line',
            unit: 'calls',
            ...pivotFields(usage.series, (point) => point.bucket_ms, { calls: (point) => point.calls, errors: (point) => point.errors }, bucket),
          };
          const shareSpec: ChartSpec = {
            kind: 'bar',
            stacked: true,
            unit: 'decisions',
            ...pivot(
              routing.gateway_share,
              (row) => row.bucket_ms,
              (row) => row.gateway ?? 'none',
              (row) => row.count,
              bucket,
            ),
          };
          const trendSpec: ChartSpec = {
            kind: 'line',
            unit: 'score',
            ...pivot(
              routing.sr_trend,
              (row) => row.bucket_ms,
              (row) => row.gateway ?? 'none',
              (row) => row.score_value,
              bucket,
            ),
          };
          const topErrors: TopError[] = [
            ...overview.top_errors.map((error) => ({
              source: error.route ?? 'payments',
              code: error.error_code ?? '—',
              message: error.error_message ?? '—',
              count: error.count,
            })),
            ...llmErrors.errors.map((error) => ({
              source: `${error.provider}/${error.model}`,
              code: error.error_class,
              message: 'model call failed',
              count: error.count,
            })),
          ].sort((a, b) => b.count - a.count);
          return (
            <>
              <KpiTiles
                label="Headline numbers"
                tiles={[
                  { label: 'Decisions', value: String(decisionCount) },
                  { label: 'Decision success rate', value: decisionCount === 0 && decisionErrorRate === 0 ? '—' : percent(1 - decisionErrorRate) },
                  { label: 'Decision error rate', value: percent(decisionErrorRate) },
                  { label: 'LLM calls', value: String(llm.calls) },
                  { label: 'LLM success rate', value: llm.calls === 0 ? '—' : percent(1 - llm.error_rate) },
                  { label: 'LLM error rate', value: percent(llm.error_rate) },
                  { label: 'LLM cost', value: `$${llm.cost_usd.toFixed(4)}` },
                ]}
              />
              <div class="grid-2">
                <ChartPanel id="decisions-chart" title="Decision volume by routing approach" spec={decisionsSpec} />
                <ChartPanel id="llm-calls-chart" title="LLM call volume and errors" spec={llmSpec} />
                <ChartPanel id="gateway-share-chart" title="Gateway share" spec={shareSpec} />
                <ChartPanel id="score-trend-chart" title="Gateway score trend" spec={trendSpec} />
              </div>
              <section class="panel" aria-labelledby="top-errors-title">
                <h2 id="top-errors-title">Top errors</h2>
                <DataTable
                  caption="Top errors of decisions, feedback and model calls"
                  rows={topErrors}
                  rowKey={(row, index) => `${row.source}-${row.code}-${index}`}
                  empty="No errors in this range."
                  columns={[
                    { header: 'Where', cell: (row) => row.source },
                    { header: 'Code', cell: (row) => <code>{row.code}</code> },
                    { header: 'Message', cell: (row) => row.message },
                    { header: 'Count', numeric: true, cell: (row) => row.count },
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
