import { useState } from 'preact/hooks';
import type { AnalyticsRange } from '../api/analytics-api';
import type { RouteGroupState } from '../api/genai-api';
import type { LlmRouteGroupReport, RouteGroup } from '../api/server-types';
import { ChartPanel } from '../charts/chart-panel';
import { formatBucket, pivot, type ChartSpec } from '../charts/chart-spec';
import { AsyncView } from '../components/async-view';
import { ConfirmAction } from '../components/confirm-dialog';
import { DataTable } from '../components/data-table';
import { FormError } from '../components/form-error';
import { percent } from '../components/kpi-tiles';
import { livePollMs, RangePicker, spansDays } from '../components/range-picker';
import { useAction } from '../components/use-action';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';
import { useTimeZone } from '../time/time-zone';

/**
 * A route group: each candidate's learned window now (success rate, eliminated; GET
 * /v1/route-groups/{name}) next to what the range's traffic did (share of calls, eliminations;
 * GET /analytics/llm/route-groups), and the share over time.
 */
function GroupCard(props: {
  readonly group: RouteGroupState;
  readonly report: LlmRouteGroupReport | undefined;
  readonly bucket: (ms: number) => string;
  onDelete(): void;
}) {
  const { group, report } = props;
  const traffic = (candidate: { provider: string; model: string }) =>
    report?.candidates.find((entry) => entry.provider === candidate.provider && entry.model === candidate.model);
  const shareSpec: ChartSpec = {
    kind: 'line',
    unit: '% of calls',
    time: true,
    ...pivot(
      (report?.candidates ?? []).flatMap((candidate) => candidate.series.map((point) => ({ ...point, name: `${candidate.provider}/${candidate.model}` }))),
      (point) => point.bucket_ms,
      (point) => point.name,
      (point) => point.share * 100,
      props.bucket,
    ),
  };
  return (
    <section class="panel" aria-labelledby={`group-${group.name}`}>
      <header class="panel-header">
        <h2 id={`group-${group.name}`}>
          <code>{group.name}</code>
        </h2>
        <button type="button" class="danger" onClick={props.onDelete} aria-label={`Delete route group ${group.name}`}>
          Delete
        </button>
      </header>
      <p class="hint">
        {report === undefined
          ? 'No calls in this range.'
          : `${report.calls} calls in this range, ${report.success_rate === null ? 'no outcomes' : `${percent(report.success_rate)} succeeded`}.`}{' '}
        Elimination below {percent(group.eliminationThreshold)} success{group.capability !== undefined ? `; capability ${group.capability}` : ''}
        {group.maxPrice !== undefined ? `; max price $${group.maxPrice}/1K` : ''}.
      </p>
      <DataTable
        caption={`Candidates of ${group.name}`}
        rows={group.candidates}
        rowKey={(candidate) => `${candidate.provider}/${candidate.model}`}
        columns={[
          { header: 'Candidate', cell: (candidate) => `${candidate.provider}/${candidate.model}` },
          { header: 'Share of calls', numeric: true, cell: (candidate) => (traffic(candidate) === undefined ? '—' : percent(traffic(candidate)!.share)) },
          {
            header: 'Success rate (window)',
            numeric: true,
            cell: (candidate) => (candidate.successRate === null ? 'no outcomes yet' : percent(candidate.successRate)),
          },
          { header: 'Outcomes', numeric: true, cell: (candidate) => candidate.outcomes },
          { header: 'Eliminated in range', numeric: true, cell: (candidate) => traffic(candidate)?.eliminated_decisions ?? 0 },
          {
            header: 'State',
            cell: (candidate) => (candidate.eliminated ? <span class="badge warn">Eliminated</span> : <span class="badge ok">Eligible</span>),
          },
        ]}
      />
      <ChartPanel id={`group-share-${group.name}`} title={`Share of calls in ${group.name}`} spec={shareSpec} />
    </section>
  );
}

/** Route groups of the OpenAI-compatible gateway: live share, success and elimination; create and delete. */
export function RouteGroupsPage() {
  const { api, session } = useDashboard();
  useTimeZone(); // re-render the buckets when the operator picks another zone
  const [range, setRange] = useState<AnalyticsRange>('1h');
  const [live, setLive] = useState(true);
  const { resource, reload } = useResource(
    async (signal) => {
      const [list, traffic] = await Promise.all([api.genai.routeGroups(), api.analytics.llmRouteGroups({ range }, signal)]);
      const groups = await Promise.all(list.data.map((group) => api.genai.routeGroup(group.name)));
      return { groups, reports: new Map(traffic.groups.map((report) => [report.route_group, report])) };
    },
    [range, session.merchantId],
    live ? livePollMs : undefined,
  );
  const [name, setName] = useState('');
  const [candidates, setCandidates] = useState('');
  const [threshold, setThreshold] = useState('0.5');
  const [deleting, setDeleting] = useState<string | undefined>(undefined);
  const save = useAction();
  const remove = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    const list = candidates
      .split(/[\n,]/)
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
      .map((entry) => {
        const slash = entry.indexOf('/');
        return slash === -1 ? { provider: entry, model: '' } : { provider: entry.slice(0, slash), model: entry.slice(slash + 1) };
      });
    void save.run(async () => {
      const [first, ...rest] = list;
      if (first === undefined) throw new Error('Enter at least one candidate as provider/model.');
      await api.genai.putRouteGroup(name, { candidates: [first, ...rest] as RouteGroup['candidates'], eliminationThreshold: Number(threshold) });
      setName('');
      setCandidates('');
      reload();
    });
  };

  return (
    <>
      <RangePicker range={range} onRange={setRange} live={live} onLive={setLive} />
      <AsyncView
        resource={resource}
        label="route groups"
        onRetry={reload}
        isEmpty={(data) => data.groups.length === 0}
        empty="No route groups yet: create one below, then send requests with model set to its name."
      >
        {({ groups, reports }) => (
          <>
            {groups.map((group) => (
              <GroupCard
                key={group.name}
                group={group}
                report={reports.get(group.name)}
                bucket={(ms) => formatBucket(ms, spansDays(range))}
                onDelete={() => setDeleting(group.name)}
              />
            ))}
          </>
        )}
      </AsyncView>
      <FormError error={remove.error} />
      <form class="panel" onSubmit={submit} aria-labelledby="new-group-title">
        <h2 id="new-group-title">Create or replace a route group</h2>
        <div class="row">
          <div class="field">
            <label for="group-name">Name</label>
            <input id="group-name" required value={name} onInput={(event) => setName(event.currentTarget.value)} />
          </div>
          <div class="field">
            <label for="group-threshold">Elimination threshold (0 to 1)</label>
            <input id="group-threshold" inputMode="decimal" value={threshold} onInput={(event) => setThreshold(event.currentTarget.value)} />
          </div>
        </div>
        <div class="field">
          <label for="group-candidates">Candidates, provider/model, one per line</label>
          <textarea id="group-candidates" rows={3} value={candidates} onInput={(event) => setCandidates(event.currentTarget.value)} />
        </div>
        <FormError error={save.error} />
        <button type="submit" class="primary" disabled={save.busy}>
          Save route group
        </button>
      </form>
      <ConfirmAction
        pending={deleting}
        title="Delete this route group?"
        confirmLabel="Delete group"
        action={remove}
        onClose={() => setDeleting(undefined)}
        perform={(target) => api.genai.deleteRouteGroup(target)}
        onDone={reload}
      >
        <p>Requests naming “{deleting}” as their model will fail once it is gone.</p>
      </ConfirmAction>
    </>
  );
}
