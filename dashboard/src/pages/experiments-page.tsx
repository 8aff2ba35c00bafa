import { useState } from 'preact/hooks';
import type { RoutingAlgorithmListItem } from '../api/routing-api';
import type { AbTestData, ExperimentArmLayers, SrConfigOverride } from '../api/server-types';
import { AsyncView } from '../components/async-view';
import { ConfirmDialog } from '../components/confirm-dialog';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useResource } from '../components/use-resource';
import { ExperimentForm } from '../experiments/experiment-form';
import { ExperimentResultsView } from '../experiments/experiment-results';
import { hrefOf } from '../routes';
import { useDashboard } from '../session/dashboard-context';
import { formatDateTime, serverTimeMs, useTimeZone } from '../time/time-zone';

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

/** An arm's layers, reading the single-strategy form (`sr_routing` or a rule id) as one layer (src/experiments/experiment-arms.ts). */
function layersOf(data: AbTestData, arm: 'control' | 'variant'): ExperimentArmLayers {
  const layered = arm === 'variant' ? data.variant : data.control;
  if (layered !== undefined) return layered;
  const id = arm === 'variant' ? data.variant_algorithm_id : data.control_algorithm_id;
  if (id === 'sr_routing') return { sr: (arm === 'variant' ? data.variant_sr_config : data.control_sr_config) ?? {} };
  return id === undefined ? {} : { rule_algorithm_id: id };
}

function armText(layers: ExperimentArmLayers, names: ReadonlyMap<string, string>): string {
  const rule = layers.rule_algorithm_id === undefined ? undefined : (names.get(layers.rule_algorithm_id) ?? `${layers.rule_algorithm_id} (deleted)`);
  const sr = layers.sr === undefined ? undefined : `Success-rate routing${overrideText(layers.sr)}`;
  if (rule !== undefined && sr !== undefined) return `${rule}, then ${sr}`;
  return rule ?? sr ?? '—';
}

const endpointNames: Record<string, string> = { hybrid_routing: '/routing/hybrid', decide_gateway: '/decide-gateway', evaluate: '/routing/evaluate' };

/** The merchant's running experiment and the rule beside it (docs/experiments.md, the experiment slot). */
function ExperimentSlot(props: { readonly running: Experiment | undefined; readonly rule: RoutingAlgorithmListItem | undefined }) {
  return (
    <section class="panel" aria-labelledby="experiment-slot-title" data-testid="experiment-slot">
      <h2 id="experiment-slot-title">Live routing</h2>
      <dl class="meta-list">
        <dt>Active rule</dt>
        <dd data-testid="slot-rule">{props.rule?.name ?? 'None: success-rate routing over the request’s gateways'}</dd>
        <dt>Running experiment</dt>
        <dd data-testid="slot-experiment">{props.running?.name ?? 'None'}</dd>
      </dl>
      <p class="hint">
        An experiment runs beside the active rule: payments it covers are routed by their arm, all others by the rule. Starting or stopping one never changes
        the other.
      </p>
    </section>
  );
}

function ExperimentCard(props: {
  readonly experiment: Experiment;
  readonly active: boolean;
  readonly running: Experiment | undefined;
  /** The active rule beside the experiment slot: what routes the payments an experiment does not take. */
  readonly rule: RoutingAlgorithmListItem | undefined;
  readonly names: ReadonlyMap<string, string>;
  onChanged(): void;
}) {
  const { api } = useDashboard();
  useTimeZone(); // re-render when the operator picks another zone
  const action = useAction();
  const [confirming, setConfirming] = useState<'start' | 'stop' | undefined>(undefined);
  const { experiment, active } = props;
  const data = experiment.algorithm_data.data;
  const titleId = `experiment-${experiment.id}-title`;
  const run = (work: () => Promise<unknown>) =>
    void action.run(async () => {
      await work();
      props.onChanged();
    });
  // Another experiment running: starting this one replaces it, and the confirmation says so.
  const replaces = props.running !== undefined && props.running.id !== experiment.id ? props.running : undefined;
  const routedBy = props.rule === undefined ? "success-rate routing over each request's gateways" : `the active rule “${props.rule.name}”`;
  return (
    <section class="panel" aria-labelledby={titleId} data-testid="experiment">
      <header class="panel-header">
        <h2 id={titleId}>{experiment.name}</h2>
        <span class={active ? 'badge ok' : 'badge muted'}>{active ? 'Active' : 'Inactive'}</span>
      </header>
      <dl class="meta-list">
        <dt>Control</dt>
        <dd>{armText(layersOf(data, 'control'), props.names)}</dd>
        <dt>Variant</dt>
        <dd>
          {armText(layersOf(data, 'variant'), props.names)} — {data.variant_split_pct} % of payments
        </dd>
        <dt>Endpoints</dt>
        <dd>{(data.endpoints ?? ['hybrid_routing', 'decide_gateway', 'evaluate']).map((endpoint) => endpointNames[endpoint] ?? endpoint).join(', ')}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(serverTimeMs(experiment.created_at))}</dd>
      </dl>
      <div class="actions">
        {active ? (
          <button type="button" disabled={action.busy} onClick={() => setConfirming('stop')} aria-label={`Stop ${experiment.name}`}>
            Stop
          </button>
        ) : (
          <button type="button" disabled={action.busy} onClick={() => setConfirming('start')} aria-label={`Start ${experiment.name}`}>
            Start
          </button>
        )}
      </div>
      <FormError error={action.error} />
      <ConfirmDialog
        open={confirming !== undefined}
        title={confirming === 'stop' ? `Stop ${experiment.name}?` : `Start ${experiment.name}?`}
        confirmLabel={confirming === 'stop' ? `Stop ${experiment.name}` : replaces === undefined ? `Start ${experiment.name}` : 'Start and stop the other'}
        onConfirm={() => {
          const chosen = confirming;
          setConfirming(undefined);
          run(() => (chosen === 'stop' ? api.routing.deactivate(experiment.id) : api.routing.activate(experiment.id)));
        }}
        onCancel={() => setConfirming(undefined)}
      >
        {confirming === 'stop' ? (
          <p>
            The experiment “{experiment.name}” ends: its variant arm gets no more payments, and every payment goes by {routedBy}. Its results stay on this page.
          </p>
        ) : (
          <p>
            {replaces === undefined
              ? ''
              : `“${replaces.name}” is running; a merchant runs one experiment at a time, so starting “${experiment.name}” stops it. `}
            “{experiment.name}” starts splitting live payments: {data.variant_split_pct} % go by its variant arm, the others by its control arm. Payments it
            does not cover stay with {routedBy}; the active rule stays as it is.
          </p>
        )}
      </ConfirmDialog>
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
    const running = active.find(isExperiment);
    const rule = active.find((record) => !isExperiment(record));
    return { all, activeIds: new Set(active.map((record) => record.id)), live, running, rule };
  }, [session.merchantId]);

  return (
    <AsyncView resource={resource} label="experiments" onRetry={reload}>
      {({ all, activeIds, live, running, rule }) => {
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
            <ExperimentSlot running={running} rule={rule} />
            {experiments.length === 0 ? (
              <section class="panel" aria-labelledby="no-experiments-title">
                <h2 id="no-experiments-title">Experiments</h2>
                <p class="state state-empty">No experiments yet: create one below.</p>
              </section>
            ) : (
              experiments.map((experiment) => (
                <ExperimentCard
                  key={experiment.id}
                  experiment={experiment}
                  active={activeIds.has(experiment.id)}
                  running={running}
                  rule={rule}
                  names={names}
                  onChanged={reload}
                />
              ))
            )}
            <ExperimentForm rules={others} onCreated={reload} />
          </>
        );
      }}
    </AsyncView>
  );
}
