import { useState } from 'preact/hooks';
import type { accountApi } from '../api/account-api';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { startHref } from '../public-routes';
import { AuthCard } from './auth-card';

/** Asks for a reset link (POST /auth/forgot-password); the answer never says whether the account exists. */
export function ForgotPasswordPage(props: { readonly account: ReturnType<typeof accountApi> }) {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | undefined>(undefined);
  const action = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      setSent((await props.account.forgotPassword(email)).message);
    });
  };

  return (
    <AuthCard title="Reset your password">
      {sent === undefined ? (
        <form onSubmit={submit} aria-describedby={action.error !== undefined ? 'forgot-error' : 'forgot-hint'}>
          <p id="forgot-hint" class="hint">
            Enter the email you sign in with; a link to choose a new password is mailed to it.
          </p>
          <label for="email">Email</label>
          <input id="email" type="email" autocomplete="username" required value={email} onInput={(event) => setEmail(event.currentTarget.value)} />
          <FormError error={action.error} id="forgot-error" />
          <button type="submit" class="primary" disabled={action.busy}>
            Send reset link
          </button>
        </form>
      ) : (
        <p role="status">{sent} The link works once and expires after a while; ask again if it has.</p>
      )}
      <p>
        <a href={startHref}>Back to sign in</a>
      </p>
    </AuthCard>
  );
}
