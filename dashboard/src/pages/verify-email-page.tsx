import type { accountApi } from '../api/account-api';
import { AsyncView } from '../components/async-view';
import { useResource } from '../components/use-resource';
import { startHref } from '../public-routes';
import { AuthCard } from './auth-card';

/** The landing page of the mailed verification link: spends the token once (GET /auth/verify-email) and says how it went. */
export function VerifyEmailPage(props: { readonly account: ReturnType<typeof accountApi>; readonly token: string }) {
  const { resource } = useResource(async (_signal) => (await props.account.verifyEmail(props.token)).message, [props.token]);
  return (
    <AuthCard title="Verify your email">
      <AsyncView resource={resource} label="the verification">
        {(message) => <p role="status">{message}</p>}
      </AsyncView>
      <p>
        <a href={startHref}>Continue to the dashboard</a>
      </p>
    </AuthCard>
  );
}
