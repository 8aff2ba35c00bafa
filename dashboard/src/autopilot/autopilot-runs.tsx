import type { AutopilotCalibratedV1 } from '../api/server-types';
import { AsyncView } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { percent } from '../components/kpi-tiles';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';
import { formatDateTime, useTimeZone } from '../time/time-zone';

type Run = AutopilotCalibratedV1;
type Candidate = Run['candidates'][number];
type SegmentChange = Run['segments'][number];

/** An estimate with its interval, or why there is none. */
export function estimateText(candidate: Candidate | undefined): string {
  if (candidate === undefined || candidate.estimatedSuccessRate === null) return 'no estimate';
  const interval = candidate.interval === null ? '' : ` (95 % CI ${percent(candidate.interval[0])} – ${percent(candidate.interval[1])})`;
  return `${percent(candidate.estimatedSuccessRate)}${interval}`;
}

const settings = (value: SegmentChange['before']) => (value === null ? '—' : `bucket ${value.bucketSize}, hedging ${value.hedgingPercent} %`);

function segmentText(change: SegmentChange): string {
  const s = change.segment;
  return [s.paymentMethodType, s.paymentMethod, s.cardNetwork, s.currency, s.country, s.authType].filter((part) => part !== null && part !== '').join(' · ');
}

/** The newest run in full: what it chose and by what, the candidates it weighed, what it changed per segment. */
function LastRun(props: { readonly run: Run }) {
  const { run } = props;
  const zone = useTimeZone();
  const chosen = run.candidates.find((candidate) => candidate.name === run.chosen);
  return (
    <div data-testid="autopilot-last-run">
      <h3>Last run</h3>
      <dl class="meta-list">
        <dt>Ran at ({zone})</dt>
        <dd>{formatDateTime(run.ranAt)}</dd>
        <dt>Outcome</dt>
        <dd>
          <span class={run.outcome === 'applied' ? 'badge ok' : 'badge muted'}>{run.outcome}</span>
          {run.reason !== null ? ` ${run.reason}` : ''}
        </dd>
        <dt>Traffic read</dt>
        <dd>last {Math.round(run.lookbackSeconds / 60)} minutes</dd>
        <dt>Chosen configuration</dt>
        <dd data-testid="autopilot-chosen">
          <code>{run.chosen}</code> (by {run.chosenBy === 'counterfactual' ? 'counterfactual estimate' : 'calibration formula'})
        </dd>
        <dt>Its estimate</dt>
        <dd data-testid="autopilot-estimate">{estimateText(chosen)}</dd>
      </dl>
      <DataTable
        caption="Candidate configurations weighed (estimated success rate)"
        rows={run.candidates}
        rowKey={(candidate) => candidate.name}
        empty="No candidates were weighed."
        columns={[
          {
            header: 'Candidate',
            cell: (candidate) =>
              candidate.name === run.chosen ? (
                <>
                  <code>{candidate.name}</code> <span class="badge ok">chosen</span>
                </>
              ) : (
                <code>{candidate.name}</code>
              ),
          },
          { header: 'Estimated success rate', cell: (candidate) => estimateText(candidate) },
        ]}
      />
      <DataTable
        caption="Segments calibrated"
        rows={run.segments}
        rowKey={(change, index) => `${segmentText(change)}-${index}`}
        empty="No segment had enough traffic."
        columns={[
          { header: 'Segment', cell: segmentText },
          { header: 'Decisions', numeric: true, cell: (change) => change.volume },
          { header: 'Action', cell: (change) => change.action },
          { header: 'Before', cell: (change) => settings(change.before) },
          { header: 'After', cell: (change) => settings(change.after) },
          { header: 'Proposed', cell: (change) => settings(change.proposed) },
        ]}
      />
    </div>
  );
}

/** The autopilot's last runs (GET …/autopilot/runs), newest first; unavailable on a service without the route. */
export function AutopilotRuns() {
  const { api, session } = useDashboard();
  const zone = useTimeZone();
  const { resource, reload } = useResource(() => api.autopilot.runs(20), [session.merchantId]);
  return (
    <section class="panel" aria-labelledby="runs-title">
      <h2 id="runs-title">Autopilot runs</h2>
      <AsyncView resource={resource} label="the autopilot runs" onRetry={reload}>
        {(answer) => {
          if (!answer.available) return <p class="state state-empty">Autopilot runs are not available on this service yet.</p>;
          const { runs } = answer.data;
          if (runs.length === 0)
            return (
              <p class="state state-empty">
                No autopilot runs yet. With both autopilot and auto-calibration on, the job runs every 15 minutes over the last hour of decisions.
              </p>
            );
          return (
            <>
              <LastRun run={runs[0]!} />
              <h3>All runs</h3>
              <DataTable
                caption="Autopilot runs, newest first"
                rows={runs}
                rowKey={(run) => run.runId}
                columns={[
                  { header: `Ran at (${zone})`, cell: (run) => formatDateTime(run.ranAt) },
                  { header: 'Outcome', cell: (run) => run.outcome },
                  { header: 'Segments', numeric: true, cell: (run) => run.segments.length },
                  { header: 'Chosen', cell: (run) => <code>{run.chosen}</code> },
                  { header: 'Chosen by', cell: (run) => run.chosenBy },
                  { header: 'Estimate', cell: (run) => estimateText(run.candidates.find((candidate) => candidate.name === run.chosen)) },
                ]}
              />
            </>
          );
        }}
      </AsyncView>
    </section>
  );
}
