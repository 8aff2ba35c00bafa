import { useState } from 'preact/hooks';
import type { AnalyticsRange } from '../api/analytics-api';
import { ChartPanel } from '../charts/chart-panel';
import { formatBucket, pivotFields, type ChartSpec } from '../charts/chart-spec';
import { AsyncView } from '../components/async-view';
import { KpiTiles, percent } from '../components/kpi-tiles';
import { RangePicker, spansDays } from '../components/range-picker';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';

/**
 * What cost-aware picks saved against the success-rate head's cost (GET /analytics/cost-savings),
 * trended over the range. A service without the route shows the panel as unavailable.
 */
export function CostSavingsPanel() {
  const { api, session } = useDashboard();
  const [range, setRange] = useState<AnalyticsRange>('1d');
  const { resource, reload } = useResource((signal) => api.costs.costSavings(range, signal), [range, session.merchantId]);
  return (
    <section class="panel" aria-labelledby="cost-savings-title">
      <h2 id="cost-savings-title">Cost savings</h2>
      <AsyncView resource={resource} label="cost savings" onRetry={reload}>
        {(answer) => {
          if (!answer.available)
            return <p class="state state-empty">Cost savings are not available on this service yet (it has no /analytics/cost-savings route).</p>;
          const report = answer.data;
          const spec: ChartSpec = {
            kind: 'bar',
            unit: report.currency ?? 'saved',
            ...pivotFields(
              report.trend,
              (point) => point.bucket_ms,
              { saved: (point) => point.saved_value },
              (ms) => formatBucket(ms, spansDays(range)),
            ),
          };
          const { totals } = report;
          return (
            <>
              <RangePicker range={range} onRange={setRange} />
              <KpiTiles
                label="Cost savings"
                tiles={[
                  { label: 'Saved', value: `${totals.saved_value.toFixed(2)}${report.currency !== null ? ` ${report.currency}` : ''}` },
                  { label: 'Decisions won on cost', value: String(totals.cost_won_count), detail: `of ${totals.total_decisions} decisions` },
                  { label: 'Share won on cost', value: totals.total_decisions === 0 ? '—' : percent(totals.cost_won_count / totals.total_decisions) },
                ]}
              />
              {report.trend.length === 0 ? (
                <p class="state state-empty">No cost-aware decisions in this range: turn on multi-objective routing (Autopilot page) and give the PSPs fees.</p>
              ) : (
                <ChartPanel id="cost-savings-chart" title="Saved per period" spec={spec} />
              )}
            </>
          );
        }}
      </AsyncView>
    </section>
  );
}
