import { useEffect, useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view';
import { ConfirmDialog } from '../components/confirm-dialog';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';
import { dimensionFields, type DraftRow, draftOf, feeFields, fieldLabels, wireRowsOf } from './seed-cost-draft';

type TextField = Exclude<keyof DraftRow, 'key' | 'isDefault'>;
const textFields: readonly TextField[] = ['psp', 'label', ...dimensionFields, ...feeFields];

/** Column widths (% of the table) in `textFields` order, then Default and Remove: the table fits its panel at 1280 px. */
const columnWidths: Readonly<Record<TextField | 'default' | 'remove', number>> = {
  psp: 8,
  label: 11,
  card_network: 8,
  payment_method_type: 7,
  card_type: 7.5,
  transaction_currency: 7,
  card_issuing_country: 6,
  interchange_bps: 9,
  scheme_bps: 7.5,
  markup_bps: 7.5,
  fixed: 6,
  default: 7,
  remove: 8.5,
};

/**
 * The merchant's seed cost table (contract rates) as an editable table: add and remove rows, save
 * the whole table (PUT …/seed-costs), or go back to the default table (DELETE) after confirmation.
 * `onSaved` lets the simulator re-price with the table just stored.
 */
export function SeedCostEditor(props: { onSaved(): void }) {
  const { api, session } = useDashboard();
  const { resource, reload } = useResource(() => api.costs.seedCosts(), [session.merchantId]);
  const [draft, setDraft] = useState<DraftRow[]>([]);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const [confirmReset, setConfirmReset] = useState(false);
  const action = useAction();
  useEffect(() => {
    if (resource.state === 'ready') setDraft(resource.data.map((row) => draftOf(row)));
  }, [resource]);

  const edit = (key: number, change: Partial<DraftRow>) => setDraft((rows) => rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const save = (event: Event) => {
    event.preventDefault();
    setSaved(undefined);
    void action.run(async () => {
      const wire = wireRowsOf(draft);
      if ('error' in wire) throw new Error(wire.error);
      const stored = await api.costs.saveSeedCosts(wire.rows);
      setDraft(stored.map((row) => draftOf(row)));
      setSaved(`Saved ${stored.length} rows.`);
      props.onSaved();
    });
  };
  const reset = () => {
    setConfirmReset(false);
    setSaved(undefined);
    void action.run(async () => {
      const table = await api.costs.resetSeedCosts();
      setDraft(table.map((row) => draftOf(row)));
      setSaved('Back to the default table.');
      props.onSaved();
    });
  };

  return (
    <section class="panel" aria-labelledby="seed-costs-title">
      <h2 id="seed-costs-title">Seed costs</h2>
      <p class="hint">
        Contract rates per PSP and card scenario, used to price gateways until settlement reports have been fitted. A blank scenario field matches any card; the
        default row of a PSP prices every card no other row matches.
      </p>
      <AsyncView resource={resource} label="the seed cost table" onRetry={reload}>
        {() => (
          <form onSubmit={save}>
            <div class="table-scroll" tabIndex={0} role="region" aria-label="Seed cost rows">
              <table class="edit-table">
                <caption>Seed cost table of {session.merchantId}</caption>
                <colgroup>
                  {[...textFields, 'default' as const, 'remove' as const].map((column) => (
                    <col key={column} style={{ width: `${columnWidths[column]}%` }} />
                  ))}
                </colgroup>
                <thead>
                  <tr>
                    {textFields.map((field) => (
                      <th scope="col" key={field}>
                        {fieldLabels[field]}
                      </th>
                    ))}
                    <th scope="col">Default</th>
                    <th scope="col">Remove</th>
                  </tr>
                </thead>
                <tbody>
                  {draft.map((row, index) => (
                    <tr key={row.key}>
                      {textFields.map((field) => (
                        <td key={field}>
                          <input
                            id={`seed-${index}-${field}`}
                            class={feeFields.includes(field as (typeof feeFields)[number]) ? 'cell-input numeric' : 'cell-input'}
                            inputMode={feeFields.includes(field as (typeof feeFields)[number]) ? 'decimal' : undefined}
                            aria-label={`${fieldLabels[field]}, row ${index + 1}`}
                            value={row[field]}
                            onInput={(event) => edit(row.key, { [field]: event.currentTarget.value })}
                          />
                        </td>
                      ))}
                      <td>
                        <input
                          type="checkbox"
                          id={`seed-${index}-default`}
                          aria-label={`Default row, row ${index + 1}`}
                          checked={row.isDefault}
                          onChange={(event) => edit(row.key, { isDefault: event.currentTarget.checked })}
                        />
                      </td>
                      <td>
                        <button
                          type="button"
                          class="danger"
                          aria-label={`Remove row ${index + 1}`}
                          onClick={() => setDraft(draft.filter((other) => other.key !== row.key))}
                        >
                          Remove
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <FormError error={action.error} />
            <div class="actions">
              <button type="button" onClick={() => setDraft([...draft, draftOf()])}>
                Add row
              </button>
              <button type="submit" class="primary" disabled={action.busy}>
                Save seed costs
              </button>
              <button type="button" class="danger" disabled={action.busy} onClick={() => setConfirmReset(true)}>
                Reset to defaults
              </button>
              <span role="status">{saved ?? ''}</span>
            </div>
          </form>
        )}
      </AsyncView>
      <ConfirmDialog
        open={confirmReset}
        title="Reset the seed cost table?"
        confirmLabel="Reset to defaults"
        onConfirm={reset}
        onCancel={() => setConfirmReset(false)}
      >
        <p>The saved table is dropped and the default table prices the PSPs again.</p>
      </ConfirmDialog>
    </section>
  );
}
