import { useState } from 'preact/hooks';
import type { AnalyticsRange } from '../api/analytics-api';
import { ChartPanel } from '../charts/chart-panel';
import type { CostSavingsReport } from '../api/server-types';
import { formatBucket, pivotFields, timeBuckets, type ChartSpec } from '../charts/chart-spec';
import { AsyncView } from '../components/async-view';
import { KpiTiles, percent } from '../components/kpi-tiles';
import { RangePicker, spansDays } from '../components/range-picker';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';
import { useTimeZone } from '../time/time-zone';
import { ReportingCurrencyForm } from './reporting-currency-form';

const money = (value: number, currency: string | null) => `${value.toFixed(2)}${currency !== null ? ` ${currency}` : ''}`;

/**
 * An amount in its currency's own minor unit (0 decimals for JPY, 3 for KWD), as the API rounded it.
 * The code is the API's validated ISO 4217 code (well-formed, so Intl takes it).
 */
function moneyIn(value: number, currency: string): string {
  const digits = new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return `${value.toFixed(digits)} ${currency}`;
}

type Reporting = NonNullable<CostSavingsReport['reporting_currency']>;

/**
 * Every currency's savings in the merchant's reporting currency, first when one is set: the totals,
 * the rates used and their date, and the currencies without a rate, apart and unconverted.
 */
function ReportingTotals(props: { readonly block: Reporting }) {
  const { block } = props;
  const code = block.currency;
  const foreign = block.converted.filter((line) => line.as_of !== null);
  return (
    <section aria-labelledby="reporting-totals-title" data-testid="reporting-totals">
      <h3 id="reporting-totals-title">All currencies in {code}</h3>
      <KpiTiles
        label={`Cost savings in ${code}`}
        tiles={[
          {
            label: `Saved in ${code}, net of lost approvals`,
            value: moneyIn(block.totals.net_value, code),
            detail: block.rates_as_of === null ? `all savings were in ${code}` : `at your rates as of ${block.rates_as_of}`,
          },
          { label: `Fees saved in ${code}`, value: moneyIn(block.totals.saved_value, code), detail: 'before the approvals lost' },
          {
            label: 'Decisions won on cost (converted)',
            value: String(block.totals.cost_won_count),
            detail: `of ${block.totals.total_decisions} decisions`,
          },
        ]}
      />
      <p class="hint" data-testid="reporting-rates">
        {foreign.length === 0
          ? `No conversion was needed: every saving shown is in ${code}.`
          : `Converted at your rates as of ${block.rates_as_of}: ${foreign.map((line) => `1 ${line.currency} = ${line.rate} ${code} (${line.as_of})`).join('; ')}.`}
      </p>
      {block.unconverted.length > 0 && (
        <p class="hint" role="note" data-testid="reporting-unconverted">
          Not in the totals, no rate to {code}:{' '}
          {block.unconverted
            .map(
              (line) =>
                `${line.currency === '' ? 'no currency' : line.currency} ${money(line.net_value, null)} net (${money(line.saved_value, null)} fees saved)`,
            )
            .join('; ')}
          . Add a rate below to include them.
        </p>
      )}
    </section>
  );
}

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
  // Re-renders on the operator's zone choice: the chart's buckets are labelled in it (formatBucket).
  useTimeZone();
  const { resource, reload } = useResource(
    async (signal) => {
      const [report, setting] = await Promise.all([api.costs.costSavings(range, currency, signal), api.costs.reportingCurrency(signal)]);
      return { report, setting };
    },
    [range, currency, session.merchantId],
  );
  return (
    <section class="panel" aria-labelledby="cost-savings-title">
      <h2 id="cost-savings-title">Cost savings</h2>
      <AsyncView resource={resource} label="cost savings" onRetry={reload}>
        {({ report: answer, setting }) => {
          if (!answer.available)
            return <p class="state state-empty">Cost savings are not available on this service yet (it has no /analytics/cost-savings route).</p>;
          const report = answer.data;
          const spec: ChartSpec = {
            kind: 'bar',
            unit: report.currency ?? 'saved',
            // Buckets and labels as the overview's charts: the window's every bucket, in the chosen zone.
            time: true,
            ...pivotFields(
              report.trend,
              (point) => point.bucket_ms,
              { 'net of lost approvals': (point) => point.net_value, 'fees saved': (point) => point.saved_value },
              (ms) => formatBucket(ms, spansDays(range)),
              { labels: timeBuckets(report), missing: 0 },
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
              {report.reporting_currency !== undefined && <ReportingTotals block={report.reporting_currency} />}
              {report.reporting_currency !== undefined && <h3>In {report.currency ?? 'one currency'}</h3>}
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
              <ReportingCurrencyForm key={JSON.stringify([setting, currencies])} setting={setting} seen={currencies} onChanged={reload} />
            </>
          );
        }}
      </AsyncView>
    </section>
  );
}
