import type { RoutingAlgorithmListItem } from '../api/routing-api';
import type { AbTestData, SrConfigOverride } from '../api/server-types';
import { AsyncView } from '../components/async-view';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useResource } from '../components/use-resource';
import { ExperimentForm } from '../experiments/experiment-form';
import { ExperimentResultsView } from '../experiments/experiment-results';
import { hrefOf } from '../routes';
import { useDashboard } from '../session/dashboard-context';

type Experiment = RoutingAlgorithmListItem & { readonly algorithm_data: { readonly type: 'ab_test'; readonly data: AbTestData } };

const isExperiment = (rule: RoutingAlgorithmListItem): rule is Experiment => rule.algorithm_data.type === 'ab_test';

function overrideText(override: SrConfigOverride | undefined): string {
  if (override === undefined) return '';
  const parts = [
    override.enable_multi_objective === true ? 'cost-aware' : override.enable_multi_objective === false ? 'auth only' : undefined,
    override.hedging_percent !== undefined ? `hedging ${override.hedging_percent} %` : undefined,
    override.elimination_threshold !== undefined ? `elimination ${override.elimination_threshold}` : undefined,
    override.margin !== undefined ? `margin ${override.margin}` : undefined,
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

function armText(algorithmId: string, override: SrConfigOverride | undefined, names: ReadonlyMap<string, string>): string {
  if (algorithmId === 'sr_routing') return `Success-rate routing${overrideText(override)}`;
  return names.get(algorithmId) ?? `${algorithmId} (deleted)`;
}

function ExperimentCard(props: { readonly experiment: Experiment; readonly active: boolean; readonly names: ReadonlyMap<string, string>; onChanged(): void }) {
  const { api } = useDashboard();
  const action = useAction();
  const { experiment, active } = props;
  const data = experiment.algorithm_data.data;
  const titleId = `experiment-${experiment.id}-title`;
  const run = (work: () => Promise<unknown>) =>
    void action.run(async () => {
      await work();
      props.onChanged();
    });
  return (
    <section class="panel" aria-labelledby={titleId} data-testid="experiment">
      <header class="panel-header">
        <h2 id={titleId}>{experiment.name}</h2>
        <span class={active ? 'badge ok' : 'badge muted'}>{active ? 'Active' : 'Inactive'}</span>
      </header>
      <dl class="meta-list">
        <dt>Control</dt>
        <dd>{armText(data.control_algorithm_id, data.control_sr_config, props.names)}</dd>
        <dt>Variant</dt>
        <dd>
          {armText(data.variant_algorithm_id, data.variant_sr_config, props.names)} — {data.variant_split_pct} % of payments
        </dd>
        <dt>Created (UTC)</dt>
        <dd>{experiment.created_at.slice(0, 19).replace('T', ' ')}</dd>
      </dl>
      <div class="actions">
        {active ? (
          <button type="button" disabled={action.busy} onClick={() => run(() => api.routing.deactivate(experiment.id))} aria-label={`Stop ${experiment.name}`}>
            Stop
          </button>
        ) : (
          <button type="button" disabled={action.busy} onClick={() => run(() => api.routing.activate(experiment.id))} aria-label={`Start ${experiment.name}`}>
            Start
          </button>
        )}
      </div>
      <FormError error={action.error} />
      <h3>Results</h3>
      <ExperimentResultsView experimentId={experiment.id} name={experiment.name} active={active} />
    </section>
  );
}

/** Experiments: `ab_test` routing algorithms with their arms, start/stop, per-arm results and verdict, and a form for a new one. */
export function ExperimentsPage() {
  const { api, session } = useDashboard();
  const { resource, reload } = useResource(async () => {
    const [all, active, features] = await Promise.all([api.routing.list(), api.routing.listActive(), api.autopilot.features()]);
    const live = features.features.find((flag) => flag.feature === 'ab-test-real-payments')?.enabled === true;
    return { all, activeIds: new Set(active.map((rule) => rule.id)), live };
  }, [session.merchantId]);

  return (
    <AsyncView resource={resource} label="experiments" onRetry={reload}>
      {({ all, activeIds, live }) => {
        const experiments = all.filter(isExperiment).sort((a, b) => b.created_at.localeCompare(a.created_at));
        const others = all.filter((rule) => !isExperiment(rule));
        const names = new Map(others.map((rule) => [rule.id, rule.name]));
        return (
          <>
            {!live && (
              <p class="hint" role="note">
                Live payments are split only while <a href={hrefOf('autopilot')}>A/B tests on real payments</a> is on; until then an active experiment changes
                nothing.
              </p>
            )}
            {experiments.length === 0 ? (
              <section class="panel" aria-labelledby="no-experiments-title">
                <h2 id="no-experiments-title">Experiments</h2>
                <p class="state state-empty">No experiments yet: create one below.</p>
              </section>
            ) : (
              experiments.map((experiment) => (
                <ExperimentCard key={experiment.id} experiment={experiment} active={activeIds.has(experiment.id)} names={names} onChanged={reload} />
              ))
            )}
            <ExperimentForm rules={others} onCreated={reload} />
          </>
        );
      }}
    </AsyncView>
  );
}
