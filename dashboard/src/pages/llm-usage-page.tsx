import { useState } from 'preact/hooks';
import type { AnalyticsRange } from '../api/analytics-api';
import { ChartPanel } from '../charts/chart-panel';
import { formatBucket, pivot, pivotFields, timeBuckets, type ChartSpec } from '../charts/chart-spec';
import { AsyncView } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { KpiTiles, percent } from '../components/kpi-tiles';
import { livePollMs, RangePicker, spansDays } from '../components/range-picker';
import { useResource } from '../components/use-resource';
import { EndUsersPanel } from '../llm/end-users-panel';
import { GuardsPanel } from '../llm/guards-panel';
import { useDashboard } from '../session/dashboard-context';
import { useTimeZone } from '../time/time-zone';

/**
 * Model calls of the merchant: volume, tokens, cost, latency, errors, prompt caching, spend per
 * end user and guardrail outcomes per key (the /analytics/llm/* reads).
 */
export function LlmUsagePage() {
  const { api, session } = useDashboard();
  useTimeZone(); // re-render the buckets when the operator picks another zone
  const [range, setRange] = useState<AnalyticsRange>('1h');
  const [live, setLive] = useState(true);
  const { resource, reload } = useResource(
    async (signal) => {
      const query = { range };
      const [overview, usage, latency, errors, promptCache, endUsers, guards] = await Promise.all([
        api.analytics.llmOverview(query, signal),
        api.analytics.llmUsage(query, signal),
        api.analytics.llmLatency(query, signal),
        api.analytics.llmErrors(query, signal),
        api.analytics.llmPromptCache(query, signal),
        api.analytics.llmEndUsers(query, signal),
        api.analytics.llmGuards(query, signal),
      ]);
      return { overview, usage, latency, errors, promptCache, endUsers, guards };
    },
    [range, session.merchantId],
    live ? livePollMs : undefined,
  );
  const bucket = (ms: number) => formatBucket(ms, spansDays(range));

  return (
    <>
      <RangePicker range={range} onRange={setRange} live={live} onLive={setLive} />
      <AsyncView resource={resource} label="LLM usage" onRetry={reload}>
        {({ overview, usage, latency, errors, promptCache, endUsers, guards }) => {
          const modelOf = (point: { provider: string; model: string }) => `${point.provider}/${point.model}`;
          // Every bucket of the window is on the axis; a bucket without calls counts 0 calls and 0 USD.
          const counts = { labels: timeBuckets(usage), missing: 0 } as const;
          const noCalls = overview.calls === 0;
          const callsSpec: ChartSpec = {
            kind: 'bar',
            stacked: true,
            unit: 'calls',
            time: true,
            ...pivot(
              usage.series,
              (point) => point.bucket_ms,
              modelOf,
              (point) => point.calls,
              bucket,
              counts,
            ),
          };
          const costSpec: ChartSpec = {
            kind: 'line',
            unit: 'USD',
            time: true,
            ...pivot(
              usage.series,
              (point) => point.bucket_ms,
              (point) => point.provider,
              (point) => point.cost_usd,
              bucket,
              counts,
            ),
          };
          const tokensSpec: ChartSpec = {
            kind: 'bar',
            stacked: true,
            unit: 'tokens',
            time: true,
            ...pivotFields(
              usage.series,
              (point) => point.bucket_ms,
              { input: (point) => point.input_tokens, output: (point) => point.output_tokens },
              bucket,
              counts,
            ),
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
                  { label: 'Success rate', value: noCalls ? '—' : percent(1 - overview.error_rate) },
                  { label: 'Error rate', value: noCalls ? '—' : percent(overview.error_rate) },
                  {
                    label: 'Tokens',
                    value: overview.total_tokens.toLocaleString(),
                    detail: `${overview.input_tokens.toLocaleString()} in / ${overview.output_tokens.toLocaleString()} out`,
                  },
                  { label: 'Cost', value: `$${overview.cost_usd.toFixed(4)}` },
                  { label: 'Average latency', value: noCalls ? '—' : `${Math.round(overview.avg_latency_ms)} ms` },
                  { label: 'Fallback calls', value: String(overview.fallback_calls) },
                ]}
              />
              <div class="grid-2">
                <ChartPanel id="llm-calls-by-model" title="Calls by model" spec={callsSpec} />
                <ChartPanel id="llm-cost" title="Cost by provider" spec={costSpec} />
                <ChartPanel id="llm-tokens" title="Tokens" spec={tokensSpec} />
                <ChartPanel id="llm-latency" title="Latency by model" spec={latencySpec} />
              </div>
              <section class="panel" aria-labelledby="llm-prompt-cache-title">
                <h2 id="llm-prompt-cache-title">Prompt caching</h2>
                <KpiTiles
                  label="Prompt caching totals"
                  tiles={[
                    {
                      label: 'Cache hit rate',
                      value: promptCache.input_tokens === 0 ? '—' : percent(promptCache.cache_hit_rate),
                      detail: `${promptCache.cache_read_tokens.toLocaleString()} of ${promptCache.input_tokens.toLocaleString()} input tokens read from the cache`,
                    },
                    {
                      label: 'Cache writes',
                      value: (promptCache.cache_write_tokens + promptCache.cache_write_1h_tokens).toLocaleString(),
                      detail: `${promptCache.cache_write_1h_tokens.toLocaleString()} for 1 hour`,
                    },
                    { label: 'Saved by caching', value: usdSigned(promptCache.saved_usd), detail: 'against the full input price' },
                    { label: 'Reasoning tokens', value: promptCache.reasoning_tokens.toLocaleString() },
                  ]}
                />
                <DataTable
                  caption="Prompt caching per API key and model"
                  rows={promptCache.usage}
                  rowKey={(row) => `${row.api_key_id ?? ''}-${row.provider}-${row.model}`}
                  empty="No provider calls in this range."
                  columns={[
                    { header: 'API key', cell: (row) => (row.api_key_id === null ? '(no key)' : <code>{row.api_key_id}</code>) },
                    { header: 'Model', cell: (row) => modelOf(row) },
                    { header: 'Calls', numeric: true, cell: (row) => row.calls },
                    { header: 'Input tokens', numeric: true, cell: (row) => row.input_tokens },
                    { header: 'Cache reads', numeric: true, cell: (row) => row.cache_read_tokens },
                    { header: 'Cache writes', numeric: true, cell: (row) => row.cache_write_tokens + row.cache_write_1h_tokens },
                    { header: 'Hit rate', numeric: true, cell: (row) => percent(row.cache_hit_rate) },
                    { header: 'Cost (USD)', numeric: true, cell: (row) => row.cost_usd.toFixed(6) },
                    { header: 'Saved (USD)', numeric: true, cell: (row) => row.saved_usd.toFixed(6) },
                  ]}
                />
              </section>
              <EndUsersPanel report={endUsers} />
              <GuardsPanel report={guards} bucket={bucket} />
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

/** Dollars with their sign: caching can cost more than it saves (cache writes are dearer than input). */
function usdSigned(value: number): string {
  return value < 0 ? `−$${(-value).toFixed(4)}` : `$${value.toFixed(4)}`;
}
