import { useState } from 'preact/hooks';
import { ApiError } from '../api/api-error';
import type { InviteMemberResponse, MemberInfo } from '../api/server-types';
import { AsyncView } from '../components/async-view';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CopyButton } from '../components/copy-button';
import { DataTable } from '../components/data-table';
import { FormError } from '../components/form-error';
import { useAction, type Action } from '../components/use-action';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';

/** A refusal in plain words: a 403 says the role is why (it may have changed since the page loaded). */
async function explainRefusal(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 403) {
      throw new Error(`Not allowed: only an admin of this merchant can invite or remove members (the service said: ${failure.message}).`);
    }
    throw failure;
  }
}

function InvitedNotice(props: { readonly invited: InviteMemberResponse; onDismiss(): void }) {
  const { invited } = props;
  if (invited.password === undefined) {
    return (
      <p class="hint" role="status" data-testid="invited">
        {invited.email} already had an account and is now a {invited.role} of this merchant; they sign in with their own password.
      </p>
    );
  }
  return (
    <div class="new-key" role="status" data-testid="invited">
      <p>
        <strong>Copy this password now and give it to {invited.email} over a safe channel.</strong> It is shown only once; the service keeps only its hash. They
        should change it under Your account after signing in.
      </p>
      <code class="secret">{invited.password}</code>
      <div class="actions">
        <CopyButton text={invited.password} label="Copy password" />
        <button type="button" onClick={props.onDismiss}>
          I have copied it
        </button>
      </div>
    </div>
  );
}

function InviteForm(props: { readonly canManage: boolean; readonly action: Action; onInvite(email: string, role: 'admin' | 'member'): Promise<void> }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'admin' | 'member'>('member');
  const submit = (event: Event) => {
    event.preventDefault();
    void props.action.run(async () => {
      await props.onInvite(email, role);
      setEmail('');
    });
  };
  const disabled = !props.canManage;
  return (
    <form class="inline-form" onSubmit={submit} aria-describedby={disabled ? 'members-read-only' : undefined}>
      <div class="field">
        <label for="invite-email">Email</label>
        <input id="invite-email" type="email" required disabled={disabled} value={email} onInput={(event) => setEmail(event.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="invite-role">Role</label>
        <select id="invite-role" disabled={disabled} value={role} onChange={(event) => setRole(event.currentTarget.value === 'admin' ? 'admin' : 'member')}>
          <option value="member">Member (read-only)</option>
          <option value="admin">Admin</option>
        </select>
      </div>
      <button type="submit" class="primary" disabled={disabled || props.action.busy}>
        Invite
      </button>
    </form>
  );
}

/**
 * The merchant's team: members with their roles, an invite form (a new user's generated password
 * shown once) and removal after confirmation. Only admins manage members: the controls are disabled
 * for a member, and a 403 (a role changed under the page) is said plainly.
 */
export function MembersPage() {
  const { api, session } = useDashboard();
  const { resource, reload } = useResource((_signal) => api.members.list(), [session.merchantId]);
  const [invited, setInvited] = useState<InviteMemberResponse | undefined>(undefined);
  const [removing, setRemoving] = useState<MemberInfo | undefined>(undefined);
  const invite = useAction();
  const remove = useAction();
  // The live role (the list) over the role the session was issued with.
  const myRole = resource.data?.find((member) => member.user_id === session.userId)?.role ?? session.role;
  const canManage = myRole === 'admin';

  const onInvite = async (email: string, role: 'admin' | 'member') => {
    setInvited(undefined);
    try {
      await explainRefusal(async () => setInvited(await api.members.invite(email, role)));
    } finally {
      reload();
    }
  };

  const confirmRemove = () => {
    const member = removing;
    setRemoving(undefined);
    if (member === undefined) return;
    void remove.run(async () => {
      try {
        await explainRefusal(async () => {
          await api.members.remove(member.user_id);
        });
      } finally {
        reload();
      }
    });
  };

  return (
    <>
      <section class="panel" aria-labelledby="invite-title">
        <h2 id="invite-title">Invite a member</h2>
        {!canManage && (
          <p class="hint" id="members-read-only">
            You are a member of this merchant (read-only): only an admin can invite or remove members.
          </p>
        )}
        <InviteForm canManage={canManage} action={invite} onInvite={onInvite} />
        <FormError error={invite.error} id="invite-error" />
        {invited !== undefined && <InvitedNotice invited={invited} onDismiss={() => setInvited(undefined)} />}
      </section>
      <section class="panel" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        <FormError error={remove.error} id="remove-error" />
        <AsyncView resource={resource} label="members" onRetry={reload} isEmpty={(members) => members.length === 0} empty="No members.">
          {(members) => (
            <DataTable
              caption={`Members of ${session.merchantId}`}
              rows={members}
              rowKey={(member) => member.user_id}
              columns={[
                {
                  header: 'Email',
                  cell: (member) => (
                    <>
                      {member.email}
                      {member.user_id === session.userId && (
                        <>
                          {' '}
                          <span class="badge muted">you</span>
                        </>
                      )}
                    </>
                  ),
                },
                {
                  header: 'Role',
                  cell: (member) => <span class={member.role === 'admin' ? 'badge ok' : 'badge muted'}>{member.role === 'admin' ? 'Admin' : 'Member'}</span>,
                },
                {
                  header: 'Actions',
                  cell: (member) =>
                    canManage && member.user_id !== session.userId ? (
                      <button type="button" class="danger" onClick={() => setRemoving(member)} aria-label={`Remove ${member.email}`}>
                        Remove
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
        open={removing !== undefined}
        title="Remove this member?"
        confirmLabel="Remove member"
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(undefined)}
      >
        <p>{removing?.email} loses access to this merchant at once, on every replica. Their account stays; invite them again to give access back.</p>
      </ConfirmDialog>
    </>
  );
}
