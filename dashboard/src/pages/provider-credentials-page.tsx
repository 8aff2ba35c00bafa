import { useState } from 'preact/hooks';
import type { ProviderCredential, ProviderCredentialList } from '../api/platform-api';
import { AsyncView } from '../components/async-view';
import { ConfirmAction } from '../components/confirm-dialog';
import { DataTable } from '../components/data-table';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';
import { formatDateTime, useTimeZone } from '../time/time-zone';

/** What deleting a credential changes for the calls being made now, in words. */
function deletionEffect(credential: ProviderCredential, operatorFallback: boolean, groups: readonly string[]): string {
  if (credential.name !== 'default') {
    const naming = groups.length === 0 ? 'No route group names it now' : `Route groups ${groups.join(', ')} name it`;
    return `${naming}: their ${credential.provider} candidates fail until a credential of that name is stored again (the operator's key is never used in its place).`;
  }
  return operatorFallback
    ? `${credential.provider} calls move to the operator's credentials at once, and the operator's account pays for them.`
    : `${credential.provider} calls are refused at once: this merchant forbade the operator's credentials, so nothing else can pay for them.`;
}

/** The route groups whose candidates name the credential (GET /v1/route-groups). */
function groupsNaming(groups: readonly { name: string; candidates: readonly { provider: string; credential?: string }[] }[], credential: ProviderCredential) {
  return groups
    .filter((group) => group.candidates.some((candidate) => candidate.provider === credential.provider && candidate.credential === credential.name))
    .map((group) => group.name);
}

/** The form that stores (replaces) one credential: its values are typed, sent once and cleared, never shown again. */
function CredentialForm(props: { readonly providers: ProviderCredentialList['providers']; onSaved(): void }) {
  const { api } = useDashboard();
  const [provider, setProvider] = useState(props.providers[0]?.provider ?? 'openai');
  const [name, setName] = useState('default');
  const [values, setValues] = useState<Record<string, string>>({});
  const save = useAction();
  const variables = props.providers.find((entry) => entry.provider === provider)?.variables ?? [];

  const submit = (event: Event) => {
    event.preventDefault();
    const sent = Object.fromEntries(Object.entries(values).filter(([variable, value]) => value !== '' && variables.some((v) => v.name === variable)));
    // Cleared at once, whatever the answer: a secret never stays in the page's state.
    setValues({});
    void save.run(async () => {
      await api.platform.putCredential(provider, name.trim() === '' ? 'default' : name.trim(), sent);
      props.onSaved();
    });
  };

  return (
    <form class="panel" onSubmit={submit} aria-labelledby="credential-form-title" autoComplete="off">
      <h2 id="credential-form-title">Add or replace a credential</h2>
      <p class="hint">
        Values are sealed at rest and never shown again: the list keeps the last four characters as a hint. Name one other than <code>default</code> to keep a
        second account that only route group candidates naming it use.
      </p>
      <div class="row">
        <div class="field">
          <label for="credential-provider">Provider</label>
          <select
            id="credential-provider"
            value={provider}
            onChange={(event) => {
              setProvider(event.currentTarget.value);
              setValues({});
            }}
          >
            {props.providers.map((entry) => (
              <option key={entry.provider} value={entry.provider}>
                {entry.provider}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="credential-name">Name</label>
          <input id="credential-name" value={name} pattern="[a-z0-9][a-z0-9_\-]{0,31}" onInput={(event) => setName(event.currentTarget.value)} />
        </div>
      </div>
      {variables.map((variable) => (
        <div class="field" key={`${provider}-${variable.name}`}>
          <label for={`credential-${variable.name}`}>
            {variable.name}
            {variable.required ? '' : ' (optional)'}
          </label>
          {variable.secret ? (
            <input
              id={`credential-${variable.name}`}
              type="password"
              autoComplete="new-password"
              spellcheck={false}
              required={variable.required}
              value={values[variable.name] ?? ''}
              onInput={(event) => setValues({ ...values, [variable.name]: event.currentTarget.value })}
            />
          ) : (
            <input
              id={`credential-${variable.name}`}
              type="text"
              autoComplete="off"
              spellcheck={false}
              required={variable.required}
              value={values[variable.name] ?? ''}
              onInput={(event) => setValues({ ...values, [variable.name]: event.currentTarget.value })}
            />
          )}
        </div>
      ))}
      <FormError error={save.error} />
      <button type="submit" class="primary" disabled={save.busy}>
        Save credential
      </button>
    </form>
  );
}

/**
 * The merchant's own provider accounts (issue 39; /provider-credentials): what is stored (never a
 * value), add or replace, delete with what it changes for live traffic, and the switch that
 * forbids the operator's credentials.
 */
export function ProviderCredentialsPage() {
  const { api, session } = useDashboard();
  useTimeZone();
  const { resource, reload } = useResource(async () => {
    const [list, groups] = await Promise.all([api.platform.credentials(), api.genai.routeGroups()]);
    return { list, groups: groups.data };
  }, [session.merchantId]);
  const [deleting, setDeleting] = useState<ProviderCredential | undefined>(undefined);
  const [fallbackChange, setFallbackChange] = useState<boolean | undefined>(undefined);
  const remove = useAction();
  const toggle = useAction();

  return (
    <AsyncView resource={resource} label="provider credentials" onRetry={reload}>
      {({ list, groups }) => {
        const covered = new Set(list.credentials.filter((credential) => credential.name === 'default').map((credential) => credential.provider));
        const uncovered = list.providers.map((entry) => entry.provider).filter((provider) => !covered.has(provider));
        return (
          <>
            <section class="panel" aria-labelledby="operator-fallback-title">
              <h2 id="operator-fallback-title">Operator credentials</h2>
              <p class="hint">
                {list.operator_fallback
                  ? "Calls to a provider you stored no credential for use the operator's, and the operator's account pays for them."
                  : "Forbidden: calls to a provider you stored no credential for are refused, never sent with the operator's."}
              </p>
              <label class="toggle">
                <input
                  type="checkbox"
                  checked={!list.operator_fallback}
                  disabled={toggle.busy}
                  onChange={(event) => {
                    event.currentTarget.checked = !list.operator_fallback;
                    setFallbackChange(!list.operator_fallback);
                  }}
                />{' '}
                Forbid operator credentials
              </label>
              <FormError error={toggle.error} />
            </section>
            <section class="panel" aria-labelledby="credentials-title">
              <h2 id="credentials-title">Stored credentials</h2>
              <DataTable
                caption="Provider credentials of this merchant"
                rows={list.credentials}
                rowKey={(credential) => `${credential.provider}:${credential.name}`}
                empty="No credentials stored: every call uses the operator's."
                columns={[
                  { header: 'Provider', cell: (credential) => credential.provider },
                  { header: 'Name', cell: (credential) => <code>{credential.name}</code> },
                  { header: 'Variables', cell: (credential) => credential.variables.join(', ') },
                  { header: 'Hint', cell: (credential) => (credential.hint === '' ? '—' : `…${credential.hint}`) },
                  { header: 'Created', cell: (credential) => formatDateTime(credential.created_at_ms) },
                  { header: 'Replaced', cell: (credential) => formatDateTime(credential.updated_at_ms) },
                  {
                    header: 'Rotated',
                    cell: (credential) =>
                      credential.rotated_at_ms === null ? 'never' : `${formatDateTime(credential.rotated_at_ms)} (key ${credential.key_id})`,
                  },
                  {
                    header: 'Actions',
                    cell: (credential) => (
                      <button
                        type="button"
                        class="danger"
                        onClick={() => setDeleting(credential)}
                        aria-label={`Delete ${credential.provider} credential ${credential.name}`}
                      >
                        Delete
                      </button>
                    ),
                  },
                ]}
              />
              <FormError error={remove.error} />
            </section>
            <CredentialForm providers={list.providers} onSaved={reload} />
            <ConfirmAction
              pending={deleting}
              title={`Delete the ${deleting?.provider ?? ''} credential “${deleting?.name ?? ''}”?`}
              confirmLabel="Delete credential"
              action={remove}
              onClose={() => setDeleting(undefined)}
              perform={(target) => api.platform.deleteCredential(target.provider, target.name)}
              onDone={reload}
            >
              {deleting !== undefined && <p>{deletionEffect(deleting, list.operator_fallback, groupsNaming(groups, deleting))}</p>}
            </ConfirmAction>
            <ConfirmAction
              pending={fallbackChange}
              title={fallbackChange === false ? "Forbid the operator's credentials?" : "Allow the operator's credentials again?"}
              confirmLabel={fallbackChange === false ? 'Forbid' : 'Allow'}
              action={toggle}
              onClose={() => setFallbackChange(undefined)}
              perform={(allowed) => api.platform.setOperatorFallback(allowed)}
              onDone={reload}
            >
              <p>
                {fallbackChange === false
                  ? uncovered.length === 0
                    ? 'Every provider has a credential of yours: live calls keep going on your accounts.'
                    : `Live calls to ${uncovered.join(', ')} are refused from the next request on: you stored no credential for them.`
                  : `Calls to ${uncovered.length === 0 ? 'providers you stored no credential for' : uncovered.join(', ')} use the operator's credentials again, and the operator's account pays for them.`}
              </p>
            </ConfirmAction>
          </>
        );
      }}
    </AsyncView>
  );
}
