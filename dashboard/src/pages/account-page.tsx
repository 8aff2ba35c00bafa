import { useState } from 'preact/hooks';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useDashboard } from '../session/dashboard-context';

export const passwordPolicyHint = '10 to 128 characters; not a common password and not built from your email.';

/** The signed-in user's account: who they are here, and a password change (other sessions end). */
export function AccountPage() {
  const { api, session } = useDashboard();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState(false);
  const change = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    setDone(false);
    void change.run(async () => {
      if (next !== confirm) throw new Error('The new password and its confirmation differ.');
      await api.account.changePassword(current, next);
      setCurrent('');
      setNext('');
      setConfirm('');
      setDone(true);
    });
  };

  return (
    <>
      <section class="panel" aria-labelledby="profile-title">
        <h2 id="profile-title">Signed in as</h2>
        <p>
          <strong>{session.email}</strong>, {session.role === 'admin' ? 'admin' : 'member (read-only)'} of <code>{session.merchantId}</code>.
        </p>
      </section>
      <section class="panel" aria-labelledby="password-title">
        <h2 id="password-title">Change password</h2>
        <form class="stack" onSubmit={submit} aria-describedby={change.error !== undefined ? 'password-error' : undefined}>
          <label for="current-password">Current password</label>
          <input
            id="current-password"
            type="password"
            autocomplete="current-password"
            required
            value={current}
            onInput={(event) => setCurrent(event.currentTarget.value)}
          />
          <label for="new-password">New password</label>
          <input
            id="new-password"
            type="password"
            autocomplete="new-password"
            required
            aria-describedby="new-password-hint"
            value={next}
            onInput={(event) => setNext(event.currentTarget.value)}
          />
          <p id="new-password-hint" class="hint">
            {passwordPolicyHint}
          </p>
          <label for="confirm-password">Confirm new password</label>
          <input
            id="confirm-password"
            type="password"
            autocomplete="new-password"
            required
            value={confirm}
            onInput={(event) => setConfirm(event.currentTarget.value)}
          />
          <FormError error={change.error} id="password-error" />
          <button type="submit" class="primary" disabled={change.busy}>
            Change password
          </button>
        </form>
        {done && (
          <p class="notice" role="status">
            Password changed. Every other session of your account has been signed out, on every device; this one stays signed in.
          </p>
        )}
      </section>
    </>
  );
}
