import { useState } from 'preact/hooks';
import type { RoutingAlgorithmListItem } from '../api/routing-api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DataTable } from '../components/data-table';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useDashboard } from '../session/dashboard-context';
import { formatDateTime, serverTimeMs, useTimeZone } from '../time/time-zone';
import { activationChange, deactivationChange, type LiveChange } from './live-change';

export interface RuleListProps {
  readonly rules: readonly RoutingAlgorithmListItem[];
  readonly activeIds: ReadonlySet<string>;
  onPreview(rule: RoutingAlgorithmListItem): void;
  onChanged(): void;
}

/**
 * The merchant's algorithms with activate/deactivate, preview and delete. Every change to live routing
 * is confirmed first, naming what it changes for live traffic (live-change.ts).
 */
export function RuleList(props: RuleListProps) {
  const { api } = useDashboard();
  const zone = useTimeZone();
  const action = useAction();
  const [deleting, setDeleting] = useState<RoutingAlgorithmListItem | undefined>(undefined);
  const [changing, setChanging] = useState<{ readonly change: LiveChange; work(): Promise<unknown> } | undefined>(undefined);
  const activate = (rule: RoutingAlgorithmListItem) =>
    setChanging({ change: activationChange(rule, props.rules, props.activeIds), work: () => api.routing.activate(rule.id) });
  const deactivate = (rule: RoutingAlgorithmListItem) =>
    setChanging({ change: deactivationChange(rule, props.rules, props.activeIds), work: () => api.routing.deactivate(rule.id) });
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
          { header: `Modified (${zone})`, cell: (rule) => formatDateTime(serverTimeMs(rule.modified_at)) },
          {
            header: 'Actions',
            cell: (rule) => (
              <div class="actions">
                <button type="button" onClick={() => props.onPreview(rule)} aria-label={`Preview ${rule.name}`}>
                  Preview
                </button>
                {props.activeIds.has(rule.id) ? (
                  <button type="button" disabled={action.busy} onClick={() => deactivate(rule)} aria-label={`Deactivate ${rule.name}`}>
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
        open={changing !== undefined}
        title={changing?.change.title ?? ''}
        confirmLabel={changing?.change.confirmLabel ?? ''}
        onConfirm={() => {
          const chosen = changing;
          setChanging(undefined);
          if (chosen !== undefined) run(chosen.work);
        }}
        onCancel={() => setChanging(undefined)}
      >
        <p data-testid="live-change">{changing?.change.text}</p>
      </ConfirmDialog>
    </>
  );
}
