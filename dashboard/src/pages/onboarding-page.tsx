import { useState } from 'preact/hooks';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useDashboard } from '../session/dashboard-context';

/**
 * Creates a merchant owned by the user and switches to it (POST /onboarding/merchant). A new
 * account sees only this; a signed-in user reaches it from the navigation to add another merchant.
 */
export function OnboardingPage(props: { readonly embedded?: boolean }) {
  const { api, session, setSession } = useDashboard();
  const [name, setName] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const answer = await api.auth.onboard(name);
      setSession({ ...session, token: answer.token, merchantId: answer.merchant_id, merchants: answer.merchants, role: 'admin' });
      window.location.hash = '#/overview';
    });
  };
  const form = (
    <form onSubmit={submit} class="stack">
      <label for="merchant-name">Merchant name</label>
      <input id="merchant-name" required maxLength={255} value={name} onInput={(event) => setName(event.currentTarget.value)} />
      <FormError error={action.error} />
      <button type="submit" class="primary" disabled={action.busy}>
        Create merchant
      </button>
    </form>
  );
  if (props.embedded === true) return <section class="panel">{form}</section>;
  return (
    <main id="main" class="auth-page">
      <div class="auth-card">
        <p class="brand">Switchyard</p>
        <h1>Create your merchant</h1>
        <p>Signed in as {session.email}. Name the merchant whose payments and model calls this account will manage.</p>
        {form}
        <button type="button" class="link" onClick={() => void api.auth.logout().finally(() => setSession(undefined))}>
          Sign out
        </button>
      </div>
    </main>
  );
}
