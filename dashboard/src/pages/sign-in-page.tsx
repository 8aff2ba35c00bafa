import { useEffect, useState } from 'preact/hooks';
import type { authApi } from '../api/auth-api';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { sessionFromAuth, type Session } from '../session/session-store';

export interface SignInPageProps {
  readonly auth: ReturnType<typeof authApi>;
  onSession(session: Session): void;
}

/** Sign in (POST /auth/login) or create an account (POST /auth/signup, then onboarding). */
export function SignInPage(props: SignInPageProps) {
  const [mode, setMode] = useState<'sign-in' | 'sign-up'>('sign-in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const signingIn = mode === 'sign-in';

  useEffect(() => {
    document.title = `${signingIn ? 'Sign in' : 'Create account'} · Switchyard`;
  }, [signingIn]);

  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const answer = signingIn ? await props.auth.login(email, password) : await props.auth.signup(email, password);
      props.onSession(sessionFromAuth(answer));
    });
  };

  return (
    <main id="main" class="auth-page">
      <div class="auth-card">
        <p class="brand">Switchyard</p>
        <h1>{signingIn ? 'Sign in' : 'Create an account'}</h1>
        <form onSubmit={submit} aria-describedby={action.error !== undefined ? 'auth-error' : undefined}>
          <label for="email">Email</label>
          <input id="email" type="email" autocomplete="username" required value={email} onInput={(event) => setEmail(event.currentTarget.value)} />
          <label for="password">Password</label>
          <input
            id="password"
            type="password"
            autocomplete={signingIn ? 'current-password' : 'new-password'}
            required
            minLength={signingIn ? undefined : 10}
            aria-describedby={signingIn ? undefined : 'password-hint'}
            value={password}
            onInput={(event) => setPassword(event.currentTarget.value)}
          />
          {!signingIn && (
            <p id="password-hint" class="hint">
              10 to 128 characters; not a common password and not built from your email.
            </p>
          )}
          {signingIn && (
            <p class="hint">
              <a href="#/forgot-password">Forgot password?</a>
            </p>
          )}
          <FormError error={action.error} id="auth-error" />
          <button type="submit" class="primary" disabled={action.busy}>
            {signingIn ? 'Sign in' : 'Create account'}
          </button>
        </form>
        <p>
          {signingIn ? 'No account yet? ' : 'Already have an account? '}
          <button type="button" class="link" onClick={() => setMode(signingIn ? 'sign-up' : 'sign-in')}>
            {signingIn ? 'Create one' : 'Sign in'}
          </button>
        </p>
      </div>
    </main>
  );
}
