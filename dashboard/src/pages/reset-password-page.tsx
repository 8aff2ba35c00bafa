import { useState } from 'preact/hooks';
import type { accountApi } from '../api/account-api';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { startHref } from '../public-routes';
import { passwordPolicyHint } from './account-page';
import { AuthCard } from './auth-card';

export interface ResetPasswordPageProps {
  readonly account: ReturnType<typeof accountApi>;
  /** The one-time token of the mailed link (`#/reset-password?token=…`). */
  readonly token: string;
  /** A reset ends every session of the account, this tab's included. */
  onReset(): void;
}

/** Sets a new password with the mailed one-time token (POST /auth/reset-password), then back to sign in. */
export function ResetPasswordPage(props: ResetPasswordPageProps) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState<string | undefined>(undefined);
  const action = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      if (password !== confirm) throw new Error('The new password and its confirmation differ.');
      setDone((await props.account.resetPassword(props.token, password)).message);
      props.onReset();
    });
  };

  if (props.token === '') {
    return (
      <AuthCard title="Choose a new password">
        <p role="alert" class="form-error">
          This link has no reset token. Open the link from the mail again, or ask for a new one.
        </p>
        <p>
          <a href="#/forgot-password">Ask for a new link</a>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password">
      {done === undefined ? (
        <form onSubmit={submit} aria-describedby={action.error !== undefined ? 'reset-error' : undefined}>
          <label for="new-password">New password</label>
          <input
            id="new-password"
            type="password"
            autocomplete="new-password"
            required
            aria-describedby="reset-hint"
            value={password}
            onInput={(event) => setPassword(event.currentTarget.value)}
          />
          <p id="reset-hint" class="hint">
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
          <FormError error={action.error} id="reset-error" />
          <button type="submit" class="primary" disabled={action.busy}>
            Set new password
          </button>
        </form>
      ) : (
        <p role="status">{done} Every session of the account has been signed out.</p>
      )}
      <p>
        <a href={startHref}>{done === undefined ? 'Back to sign in' : 'Sign in'}</a>
        {action.error !== undefined && (
          <>
            {' · '}
            <a href="#/forgot-password">Ask for a new link</a>
          </>
        )}
      </p>
    </AuthCard>
  );
}
