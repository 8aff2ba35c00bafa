import type { ExperimentArmMetrics, ExperimentResults } from '../api/server-types';
import { AsyncView } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { percent } from '../components/kpi-tiles';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';
import { formatDateTime, useTimeZone } from '../time/time-zone';

const verdicts: Record<ExperimentResults['verdict'], { readonly text: string; readonly badge: string }> = {
  collecting_data: { text: 'Collecting data', badge: 'badge muted' },
  not_significant: { text: 'No significant difference', badge: 'badge muted' },
  variant_wins: { text: 'Variant wins', badge: 'badge ok' },
  variant_loses: { text: 'Variant loses', badge: 'badge warn' },
  guardrail_breached: { text: 'Guardrail breached', badge: 'badge warn' },
};

const triggers: Record<string, string> = { schedule: 'the periodic check', results_read: 'a results read' };

/** When, why and on what evidence the guardrail stopped the experiment, in words (the time in the operator's zone, named). */
function stopText(stop: NonNullable<ExperimentResults['guardrail_stop']>, running: boolean): string {
  const by = stop.trigger === null ? '' : ` by ${triggers[stop.trigger] ?? stop.trigger}`;
  const sample = (count: number | null) => (count === null ? '' : ` on ${count} resolved payments`);
  const evidence =
    `the variant's auth rate (${percent(stop.variant_auth_rate)}${sample(stop.variant_transactions)}) fell more than the ${stop.threshold_pp} pp guardrail` +
    ` below control's (${percent(stop.control_auth_rate)}${sample(stop.control_transactions)})`;
  const after = running ? ' It was started again since; only payments after the stop count now.' : ' Payments go by the active rule.';
  return `Stopped${by} at ${formatDateTime(stop.stopped_at_ms)}: ${evidence}.${after}`;
}

const orDash = (value: number | null, format: (value: number) => string) => (value === null ? '—' : format(value));
const fixed = (digits: number) => (value: number) => value.toFixed(digits);

/** How often an active experiment's results are re-read (its guardrail is checked on a schedule too: docs/experiments.md). */
const activePollMs = 15_000;

/** Per-arm metrics, the tested delta and the verdict of one experiment (GET /analytics/experiment/{id}/results), re-read while it runs. */
export function ExperimentResultsView(props: { readonly experimentId: string; readonly name: string; readonly active: boolean }) {
  const { api, session } = useDashboard();
  // Re-renders on the operator's zone choice: the stop time is written in it.
  useTimeZone();
  const { resource, reload } = useResource(
    (signal) => api.experiments.results(props.experimentId, signal),
    [props.experimentId, session.merchantId],
    props.active ? activePollMs : undefined,
  );
  return (
    <AsyncView resource={resource} label={`the results of ${props.name}`} onRetry={reload}>
      {(answer) => {
        if (!answer.available) return <p class="state state-empty">Experiment results are not available on this service yet.</p>;
        const results = answer.data;
        const verdict = verdicts[results.verdict];
        // Stopped by the guardrail and not started since: that is the experiment's state, whatever the data reads now.
        const stopped = results.guardrail_stop !== null && !results.running;
        const cost = results.net_delta_bps !== null;
        const unit = cost ? 'bps of EV' : 'pp of auth rate';
        return (
          <div data-testid={`experiment-results-${props.experimentId}`}>
            <dl class="meta-list">
              <dt>Verdict</dt>
              <dd>
                {stopped ? (
                  <>
                    <span class="badge warn" data-testid="experiment-verdict">
                      Stopped by the guardrail
                    </span>{' '}
                    <span class="hint">
                      the data now reads: {verdict.text.toLowerCase()}; the variant gets no payments until the experiment is started again
                    </span>
                  </>
                ) : (
                  <span class={verdict.badge} data-testid="experiment-verdict">
                    {verdict.text}
                  </span>
                )}
              </dd>
              {results.guardrail_stop !== null && (
                <>
                  <dt>Guardrail stop</dt>
                  <dd data-testid="guardrail-stop">{stopText(results.guardrail_stop, results.running)}</dd>
                </>
              )}
              <dt>Auth rate delta</dt>
              <dd>{results.delta_pp.toFixed(2)} pp (variant − control)</dd>
              {cost && (
                <>
                  <dt>Net EV delta</dt>
                  <dd>{orDash(results.net_delta_bps, fixed(2))} bps</dd>
                </>
              )}
              <dt>p-value</dt>
              <dd>{orDash(results.p_value, fixed(4))}</dd>
              <dt>95 % interval</dt>
              <dd>
                {results.confidence_interval === null
                  ? '—'
                  : `${results.confidence_interval[0].toFixed(2)} to ${results.confidence_interval[1].toFixed(2)} ${unit}`}
              </dd>
              <dt>Thresholds</dt>
              <dd>
                {results.min_sample_size} resolved payments per arm; guardrail {results.guardrail_threshold_pp} pp
              </dd>
            </dl>
            <DataTable<ExperimentArmMetrics>
              caption={`Arms of ${props.name}`}
              rows={[results.control, results.variant]}
              rowKey={(arm) => arm.arm}
              columns={[
                { header: 'Arm', cell: (arm) => arm.arm },
                { header: 'Assigned', numeric: true, cell: (arm) => arm.assigned_count },
                { header: 'Resolved', numeric: true, cell: (arm) => arm.transaction_count },
                { header: 'Successes', numeric: true, cell: (arm) => arm.success_count },
                { header: 'Auth rate', numeric: true, cell: (arm) => (arm.transaction_count === 0 ? '—' : percent(arm.auth_rate)) },
                { header: 'Cost saved (bps)', numeric: true, cell: (arm) => orDash(arm.avg_cost_saved_bps, fixed(2)) },
                { header: 'Net EV (bps)', numeric: true, cell: (arm) => orDash(arm.net_ev_bps, fixed(2)) },
              ]}
            />
          </div>
        );
      }}
    </AsyncView>
  );
}
