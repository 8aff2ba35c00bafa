import { useState } from 'preact/hooks';
import type { RoutingAlgorithmListItem } from '../api/routing-api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DataTable } from '../components/data-table';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useDashboard } from '../session/dashboard-context';

export interface RuleListProps {
  readonly rules: readonly RoutingAlgorithmListItem[];
  readonly activeIds: ReadonlySet<string>;
  onPreview(rule: RoutingAlgorithmListItem): void;
  onChanged(): void;
}

const isExperiment = (rule: RoutingAlgorithmListItem) => rule.algorithm_data.type === 'ab_test';

/**
 * What activating `rule` stops (docs/experiments.md, the experiment slot): an experiment replaces
 * the running experiment, a rule replaces the active rule of its `algorithm_for`; neither touches the other.
 */
function replacedBy(
  rule: RoutingAlgorithmListItem,
  rules: readonly RoutingAlgorithmListItem[],
  activeIds: ReadonlySet<string>,
): RoutingAlgorithmListItem | undefined {
  return rules.find(
    (other) =>
      other.id !== rule.id &&
      activeIds.has(other.id) &&
      isExperiment(other) === isExperiment(rule) &&
      (isExperiment(rule) || other.algorithm_for === rule.algorithm_for),
  );
}

/** The merchant's algorithms with activate/deactivate, preview and delete (confirmed), and a confirmation before an activation that stops another. */
export function RuleList(props: RuleListProps) {
  const { api } = useDashboard();
  const action = useAction();
  const [deleting, setDeleting] = useState<RoutingAlgorithmListItem | undefined>(undefined);
  const [activating, setActivating] = useState<{ readonly rule: RoutingAlgorithmListItem; readonly replaced: RoutingAlgorithmListItem } | undefined>(undefined);
  const activate = (rule: RoutingAlgorithmListItem) => {
    const replaced = replacedBy(rule, props.rules, props.activeIds);
    if (replaced === undefined) run(() => api.routing.activate(rule.id));
    else setActivating({ rule, replaced });
  };
  const running = props.rules.find((rule) => isExperiment(rule) && props.activeIds.has(rule.id));
  const run = (work: () => Promise<unknown>) =>
    void action.run(async () => {
      await work();
      props.onChanged();
    });
  const confirmDelete = () => {
    const rule = deleting;
    setDeleting(undefined);
    if (rule !== undefined) run(() => api.routing.remove(rule.id));
  };
  return (
    <>
      <FormError error={action.error} />
      <DataTable
        caption="Routing algorithms"
        rows={props.rules}
        rowKey={(rule) => rule.id}
        columns={[
          { header: 'Name', cell: (rule) => rule.name },
          { header: 'Type', cell: (rule) => rule.algorithm_data.type },
          {
            header: 'Status',
            cell: (rule) => (props.activeIds.has(rule.id) ? <span class="badge ok">Active</span> : <span class="badge muted">Inactive</span>),
          },
          { header: 'Modified (UTC)', cell: (rule) => rule.modified_at.slice(0, 19) },
          {
            header: 'Actions',
            cell: (rule) => (
              <div class="actions">
                <button type="button" onClick={() => props.onPreview(rule)} aria-label={`Preview ${rule.name}`}>
                  Preview
                </button>
                {props.activeIds.has(rule.id) ? (
                  <button
                    type="button"
                    disabled={action.busy}
                    onClick={() => run(() => api.routing.deactivate(rule.id))}
                    aria-label={`Deactivate ${rule.name}`}
                  >
                    Deactivate
                  </button>
                ) : (
                  <button type="button" disabled={action.busy} onClick={() => activate(rule)} aria-label={`Activate ${rule.name}`}>
                    Activate
                  </button>
                )}
                <button type="button" class="danger" disabled={action.busy} onClick={() => setDeleting(rule)} aria-label={`Delete ${rule.name}`}>
                  Delete
                </button>
              </div>
            ),
          },
        ]}
      />
      <ConfirmDialog
        open={deleting !== undefined}
        title="Delete this rule?"
        confirmLabel="Delete rule"
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(undefined)}
      >
        <p>“{deleting?.name}” is deleted for good. An active rule must be deactivated first.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={activating !== undefined}
        title={`Activate ${activating?.rule.name ?? ''}?`}
        confirmLabel={`Activate and stop ${activating?.replaced.name ?? ''}`}
        onConfirm={() => {
          const chosen = activating;
          setActivating(undefined);
          if (chosen !== undefined) run(() => api.routing.activate(chosen.rule.id));
        }}
        onCancel={() => setActivating(undefined)}
      >
        {activating !== undefined && isExperiment(activating.rule) ? (
          <p>The running experiment “{activating.replaced.name}” stops: a merchant runs one experiment at a time. The active rule stays as it is.</p>
        ) : (
          <p>
            “{activating?.replaced.name}” stops routing live {activating?.rule.algorithm_for} traffic and “{activating?.rule.name}” takes its place.
            {running === undefined ? '' : ` The running experiment “${running.name}” keeps running beside it.`}
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}
