import { useState } from 'preact/hooks';
import type { ApiKeyCreated, ApiKeyListItem } from '../api/server-types';
import { AsyncView } from '../components/async-view';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CopyButton } from '../components/copy-button';
import { DataTable } from '../components/data-table';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';
import { formatDateTime, serverTimeMs, useTimeZone } from '../time/time-zone';

/** API keys of the merchant: create (the raw key shown once), list with prefix and status, revoke. */
export function ApiKeysPage() {
  const { api, session } = useDashboard();
  const zone = useTimeZone();
  const { resource, reload } = useResource((_signal) => api.keys.list(), [session.merchantId]);
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<ApiKeyCreated | undefined>(undefined);
  const [revoking, setRevoking] = useState<ApiKeyListItem | undefined>(undefined);
  const create = useAction();
  const revoke = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    void create.run(async () => {
      setCreated(await api.keys.create(description));
      setDescription('');
      reload();
    });
  };

  const confirmRevoke = () => {
    const key = revoking;
    setRevoking(undefined);
    if (key === undefined) return;
    void revoke.run(async () => {
      await api.keys.revoke(key.key_id);
      reload();
    });
  };

  return (
    <>
      <section class="panel" aria-labelledby="create-key-title">
        <h2 id="create-key-title">Create a key</h2>
        <form class="inline-form" onSubmit={submit}>
          <div class="field">
            <label for="key-description">Description</label>
            <input
              id="key-description"
              maxLength={255}
              placeholder="e.g. checkout service"
              value={description}
              onInput={(event) => setDescription(event.currentTarget.value)}
            />
          </div>
          <button type="submit" class="primary" disabled={create.busy}>
            Create key
          </button>
        </form>
        <FormError error={create.error} />
        {created !== undefined && (
          <div class="new-key" role="status" data-testid="new-key">
            <p>
              <strong>Copy this key now.</strong> It is shown only once; the service keeps only its hash.
            </p>
            <code class="secret">{created.api_key}</code>
            <div class="actions">
              <CopyButton text={created.api_key} label="Copy key" />
              <button type="button" onClick={() => setCreated(undefined)}>
                I have copied it
              </button>
            </div>
          </div>
        )}
      </section>
      <section class="panel" aria-labelledby="keys-title">
        <h2 id="keys-title">Keys</h2>
        <FormError error={revoke.error} />
        <AsyncView resource={resource} label="API keys" onRetry={reload} isEmpty={(keys) => keys.length === 0} empty="No keys yet: create one above.">
          {(keys) => (
            <DataTable
              caption={`API keys of ${session.merchantId}`}
              rows={[...keys].sort((a, b) => b.created_at.localeCompare(a.created_at))}
              rowKey={(key) => key.key_id}
              columns={[
                { header: 'Prefix', cell: (key) => <code>{key.key_prefix}…</code> },
                { header: 'Description', cell: (key) => key.description ?? '—' },
                { header: 'Status', cell: (key) => <span class={key.is_active ? 'badge ok' : 'badge muted'}>{key.is_active ? 'Active' : 'Revoked'}</span> },
                { header: `Created (${zone})`, cell: (key) => formatDateTime(serverTimeMs(key.created_at)) },
                {
                  header: 'Actions',
                  cell: (key) =>
                    key.is_active ? (
                      <button type="button" class="danger" onClick={() => setRevoking(key)} aria-label={`Revoke key ${key.key_prefix}`}>
                        Revoke
                      </button>
                    ) : (
                      '—'
                    ),
                },
              ]}
            />
          )}
        </AsyncView>
      </section>
      <ConfirmDialog
        open={revoking !== undefined}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        onConfirm={confirmRevoke}
        onCancel={() => setRevoking(undefined)}
      >
        <p>
          Key <code>{revoking?.key_prefix}…</code> stops working at once, on every replica. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
