import { useState } from 'preact/hooks';
import type { AnalyticsRange } from '../api/analytics-api';
import type { DeclineReason, GatewayApproval, OverviewReport } from '../api/server-types';
import { ChartPanel } from '../charts/chart-panel';
import { formatBucket, pivot, pivotFields, timeBuckets, type ChartSpec } from '../charts/chart-spec';
import { AsyncView } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { KpiTiles, percent, type Kpi } from '../components/kpi-tiles';
import { livePollMs, RangePicker, spansDays } from '../components/range-picker';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';
import { formatDateTime, useTimeZone } from '../time/time-zone';

/** How many gateways get their own approval tile (the table lists every one). */
const gatewayTileLimit = 6;

const rateOf = (rate: number | null) => (rate === null ? '—' : percent(rate));
const withoutOutcome = (row: { pending: number; no_outcome: number }) => row.pending + row.no_outcome;

/** The overall approval series: every gateway's approved and declined of a bucket together. */
function overallApproval(series: OverviewReport['approval_series']) {
  const buckets = new Map<number, { approved: number; declined: number }>();
  for (const point of series) {
    const bucket = buckets.get(point.bucket_ms) ?? { approved: 0, declined: 0 };
    bucket.approved += point.approved;
    bucket.declined += point.declined;
    buckets.set(point.bucket_ms, bucket);
  }
  return [...buckets].map(([bucket_ms, counts]) => ({ bucket_ms, gateway: 'All gateways', rate: counts.approved / (counts.approved + counts.declined) }));
}

/** A score series per gateway, or per gateway and payment method when the window holds several. */
function scoreSeriesName(trend: readonly { payment_method_type: string | null; payment_method: string | null }[]) {
  const methods = new Set(trend.map((row) => `${row.payment_method_type ?? ''}/${row.payment_method ?? ''}`));
  return (row: { gateway: string | null; payment_method_type: string | null; payment_method: string | null }) =>
    methods.size > 1 ? `${row.gateway ?? 'none'} · ${row.payment_method_type ?? '—'}/${row.payment_method ?? '—'}` : (row.gateway ?? 'none');
}

function GatewayTable(props: { readonly rows: readonly GatewayApproval[] }) {
  return (
    <DataTable
      caption="Approval, volume and latency per gateway (from score feedback)"
      rows={props.rows}
      rowKey={(row) => row.gateway}
      empty="No payments routed in this range."
      columns={[
        { header: 'Gateway', cell: (row) => row.gateway },
        { header: 'Approval rate', numeric: true, cell: (row) => rateOf(row.approval_rate) },
        { header: 'Approved', numeric: true, cell: (row) => row.approved },
        { header: 'Declined', numeric: true, cell: (row) => row.declined },
        { header: 'No outcome yet', numeric: true, cell: (row) => withoutOutcome(row) },
        { header: 'Payments (volume)', numeric: true, cell: (row) => row.attempts },
        { header: 'Decisions', numeric: true, cell: (row) => row.decisions },
        { header: 'Avg gateway latency', numeric: true, cell: (row) => (row.avg_latency_ms === null ? '—' : `${Math.round(row.avg_latency_ms)} ms`) },
      ]}
    />
  );
}

function DeclineTable(props: { readonly rows: readonly DeclineReason[]; readonly zone: string }) {
  return (
    <DataTable
      caption="Top decline reasons by gateway and gateway status map class"
      rows={props.rows}
      rowKey={(row, index) => `${row.gateway}-${row.error_code ?? ''}-${row.unified_code ?? ''}-${index}`}
      empty="No declined payments in this range."
      columns={[
        { header: 'Gateway', cell: (row) => row.gateway },
        { header: 'Decline code', cell: (row) => (row.error_code === null ? 'none sent' : <code>{row.error_code}</code>) },
        { header: 'Message', cell: (row) => row.error_message ?? '—' },
        {
          header: 'GSM class',
          cell: (row) => (row.unified_code === null ? 'unclassified' : `${row.unified_code} · ${row.unified_message ?? ''}`),
        },
        { header: 'Whose failure', cell: (row) => row.failure_side ?? 'unknown' },
        { header: 'Count', numeric: true, cell: (row) => row.count },
        { header: `Last seen (${props.zone})`, cell: (row) => formatDateTime(row.last_seen_ms) },
      ]}
    />
  );
}

/**
 * Both halves at a glance: payment approval first (from score feedback, overall and per gateway,
 * over time), decline reasons, the decide API's own success rate, gateway share and scores, and
 * model calls.
 */
export function OverviewPage() {
  const { api, session } = useDashboard();
  const zone = useTimeZone();
  const [range, setRange] = useState<AnalyticsRange>('1h');
  const [live, setLive] = useState(true);
  const { resource, reload } = useResource(
    async (signal) => {
      const query = { range };
      const [decisions, overview, routing, llm, usage] = await Promise.all([
        api.analytics.decisions(query, signal),
        api.analytics.overview(query, signal),
        api.analytics.routingStats(query, signal),
        api.analytics.llmOverview(query, signal),
        api.analytics.llmUsage(query, signal),
      ]);
      return { decisions, overview, routing, llm, usage };
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
        {({ decisions, overview, routing, llm, usage }) => {
          // Every chart of the page shares the overview's window, empty buckets included.
          const labels = timeBuckets(overview);
          const counts = { labels, missing: 0 } as const;
          const noData = { labels, missing: null } as const;
          const decisionCount = Number(decisions.tiles.find((tile) => tile.label === 'Decisions')?.value ?? 0);
          const decisionErrorRate = Number.parseFloat(decisions.tiles.find((tile) => tile.label === 'Error rate')?.value ?? '0') / 100;
          const { approval } = overview;
          const approvalSpec: ChartSpec = {
            kind: 'line',
            unit: '% approved',
            time: true,
            ...pivot(
              [...overallApproval(overview.approval_series), ...overview.approval_series.map((point) => ({ ...point, rate: point.approval_rate }))],
              (row) => row.bucket_ms,
              (row) => row.gateway,
              (row) => Math.round(row.rate * 10_000) / 100,
              bucket,
              noData,
            ),
          };
          const decisionsSpec: ChartSpec = {
            kind: 'bar',
            stacked: true,
            unit: 'decisions',
            time: true,
            ...pivot(
              decisions.series,
              (row) => row.bucket_ms,
              (row) => row.routing_approach ?? 'unknown',
              (row) => row.count,
              bucket,
              counts,
            ),
          };
          const llmSpec: ChartSpec = {
            kind: 'line',
            unit: 'calls',
            time: true,
            ...pivotFields(usage.series, (point) => point.bucket_ms, { calls: (point) => point.calls, errors: (point) => point.errors }, bucket, counts),
          };
          const shareSpec: ChartSpec = {
            kind: 'bar',
            stacked: true,
            unit: 'decisions',
            time: true,
            ...pivot(
              routing.gateway_share,
              (row) => row.bucket_ms,
              (row) => row.gateway ?? 'none',
              (row) => row.count,
              bucket,
              counts,
            ),
          };
          const trendSpec: ChartSpec = {
            kind: 'line',
            unit: 'score (last in bucket)',
            time: true,
            ...pivot(
              routing.sr_trend,
              (row) => row.bucket_ms,
              scoreSeriesName(routing.sr_trend),
              (row) => row.score_value,
              bucket,
              {
                ...noData,
                combine: 'last',
              },
            ),
          };
          const gatewayTiles: Kpi[] = overview.gateway_approval.slice(0, gatewayTileLimit).map((row) => ({
            label: `Approval · ${row.gateway}`,
            value: rateOf(row.approval_rate),
            detail: `${row.approved} of ${row.approved + row.declined} with an outcome; ${withoutOutcome(row)} without`,
          }));
          return (
            <>
              <KpiTiles
                label="Payment approval"
                tiles={[
                  {
                    label: 'Payment approval rate',
                    value: rateOf(approval.approval_rate),
                    detail: `${approval.approved} approved, ${approval.declined} declined (from score feedback)`,
                  },
                  { label: 'No outcome yet', value: String(withoutOutcome(approval)), detail: 'payments with no final feedback; not counted as approved' },
                  ...gatewayTiles,
                ]}
              />
              <div class="grid-2">
                <ChartPanel id="approval-chart" title="Payment approval rate over time" spec={approvalSpec} />
                <ChartPanel id="score-trend-chart" title="Gateway score trend" spec={trendSpec} />
              </div>
              <section class="panel" aria-labelledby="gateway-approval-title" data-testid="gateway-approval">
                <h2 id="gateway-approval-title">Gateways</h2>
                <GatewayTable rows={overview.gateway_approval} />
              </section>
              <section class="panel" aria-labelledby="decline-reasons-title" data-testid="decline-reasons">
                <h2 id="decline-reasons-title">Top decline reasons</h2>
                <DeclineTable rows={overview.decline_reasons} zone={zone} />
              </section>
              <KpiTiles
                label="API and model calls"
                tiles={[
                  { label: 'Decisions', value: String(decisionCount), detail: 'decide calls' },
                  {
                    label: 'API success rate',
                    value: decisionCount === 0 && decisionErrorRate === 0 ? '—' : percent(1 - decisionErrorRate),
                    detail: 'decide calls that did not error (not payment approval)',
                  },
                  { label: 'API error rate', value: decisionCount === 0 && decisionErrorRate === 0 ? '—' : percent(decisionErrorRate) },
                  { label: 'LLM calls', value: String(llm.calls) },
                  { label: 'LLM success rate', value: llm.calls === 0 ? '—' : percent(1 - llm.error_rate) },
                  { label: 'LLM error rate', value: llm.calls === 0 ? '—' : percent(llm.error_rate) },
                  { label: 'LLM cost', value: `$${llm.cost_usd.toFixed(4)}` },
                ]}
              />
              <div class="grid-2">
                <ChartPanel id="gateway-share-chart" title="Gateway share" spec={shareSpec} />
                <ChartPanel id="decisions-chart" title="Decision volume by routing approach" spec={decisionsSpec} />
                <ChartPanel id="llm-calls-chart" title="LLM call volume and errors" spec={llmSpec} />
              </div>
            </>
          );
        }}
      </AsyncView>
    </>
  );
}
