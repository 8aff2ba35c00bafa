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

/** The merchant's algorithms with activate/deactivate, preview and delete (confirmed). */
export function RuleList(props: RuleListProps) {
  const { api } = useDashboard();
  const action = useAction();
  const [deleting, setDeleting] = useState<RoutingAlgorithmListItem | undefined>(undefined);
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
                  <button type="button" disabled={action.busy} onClick={() => run(() => api.routing.activate(rule.id))} aria-label={`Activate ${rule.name}`}>
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
    </>
  );
}
