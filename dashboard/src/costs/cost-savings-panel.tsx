import { useState } from 'preact/hooks';
import type { AnalyticsRange } from '../api/analytics-api';
import { ChartPanel } from '../charts/chart-panel';
import { formatBucket, pivotFields, type ChartSpec } from '../charts/chart-spec';
import { AsyncView } from '../components/async-view';
import { KpiTiles, percent } from '../components/kpi-tiles';
import { RangePicker, spansDays } from '../components/range-picker';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';

const money = (value: number, currency: string | null) => `${value.toFixed(2)}${currency !== null ? ` ${currency}` : ''}`;

/**
 * What cost-aware picks saved against the success-rate head (GET /analytics/cost-savings), in one
 * currency at a time (amounts in different currencies do not add up), net of the approvals the
 * cheaper gateways were expected to lose: the fee saved alone would call a pick that loses more in
 * approvals than it saves in fees a saving. A service without the route shows the panel as unavailable.
 */
export function CostSavingsPanel() {
  const { api, session } = useDashboard();
  const [range, setRange] = useState<AnalyticsRange>('1d');
  // Undefined: the API's pick, the currency with the most cost-won decisions.
  const [currency, setCurrency] = useState<string | undefined>(undefined);
  const { resource, reload } = useResource((signal) => api.costs.costSavings(range, currency, signal), [range, currency, session.merchantId]);
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
              { 'net of lost approvals': (point) => point.net_value, 'fees saved': (point) => point.saved_value },
              (ms) => formatBucket(ms, spansDays(range)),
            ),
          };
          const { totals } = report;
          const currencies = report.available_currencies.map((entry) => entry.currency);
          if (report.currency !== null && !currencies.includes(report.currency)) currencies.unshift(report.currency);
          const counts = new Map(report.available_currencies.map((entry) => [entry.currency, entry.decision_count]));
          const older = totals.cost_won_count - totals.net_known_count;
          return (
            <>
              <div class="toolbar">
                <RangePicker range={range} onRange={setRange} />
                <div class="field">
                  <label for="savings-currency">Currency</label>
                  <select
                    id="savings-currency"
                    value={report.currency ?? ''}
                    disabled={currencies.length === 0}
                    onChange={(event) => setCurrency(event.currentTarget.value)}
                  >
                    {currencies.length === 0 && <option value="">none yet</option>}
                    {currencies.map((code) => (
                      <option key={code} value={code}>
                        {code}
                        {counts.has(code) ? ` (${counts.get(code)} decisions)` : ''}
                      </option>
                    ))}
                  </select>
                </div>
              </div>
              <KpiTiles
                label="Cost savings"
                tiles={[
                  {
                    label: 'Saved, net of lost approvals',
                    value: money(totals.net_value, report.currency),
                    detail: 'expected value at the scores and margin each decision was made with',
                  },
                  { label: 'Fees saved', value: money(totals.saved_value, report.currency), detail: 'before the approvals lost' },
                  {
                    label: 'Approvals lost (expected)',
                    value: totals.approvals_lost.toFixed(2),
                    detail: totals.cost_won_count === 0 ? 'no decision won on cost' : `over ${totals.cost_won_count} decisions won on cost`,
                  },
                  { label: 'Decisions won on cost', value: String(totals.cost_won_count), detail: `of ${totals.total_decisions} decisions` },
                  { label: 'Share won on cost', value: totals.total_decisions === 0 ? '—' : percent(totals.cost_won_count / totals.total_decisions) },
                ]}
              />
              {older > 0 && (
                <p class="hint">
                  {older} of the {totals.cost_won_count} decisions won on cost were recorded before the service kept their net value: they count in the fees
                  saved only.
                </p>
              )}
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
