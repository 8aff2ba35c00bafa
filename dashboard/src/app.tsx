import { useEffect, useMemo, useState } from 'preact/hooks';
import { accountApi } from './api/account-api';
import { analyticsApi } from './api/analytics-api';
import { apiKeysApi } from './api/api-keys-api';
import { authApi } from './api/auth-api';
import { autopilotApi } from './api/autopilot-api';
import { volumeCommitmentApi } from './api/volume-commitment-api';
import { costsApi } from './api/costs-api';
import { experimentsApi } from './api/experiments-api';
import { genaiApi } from './api/genai-api';
import { platformApi } from './api/platform-api';
import { createHttpClient } from './api/http-client';
import { membersApi } from './api/members-api';
import { routingApi } from './api/routing-api';
import { Layout } from './layout';
import { OnboardingPage } from './pages/onboarding-page';
import { PageOutlet } from './page-outlet';
import { PublicPage } from './pages/public-page';
import { SignInPage } from './pages/sign-in-page';
import { parsePublicLocation } from './public-routes';
import { parseLocation } from './routes';
import { DashboardContext, type DashboardApi } from './session/dashboard-context';
import { loadSession, saveSession, type Session } from './session/session-store';

function useHash(): string {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const onChange = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return hash;
}

/** The dashboard: sign-in until there is a session, onboarding until it has a merchant, then the pages. */
export function App() {
  const [session, setSessionState] = useState<Session | undefined>(() => loadSession());
  const hash = useHash();
  const location = parseLocation(hash);
  const publicLocation = parsePublicLocation(hash);
  const setSession = (next: Session | undefined) => {
    saveSession(next);
    setSessionState(next);
  };

  // One client for the app's life; it reads the current token on every call.
  const sessionRef = useMemo(() => ({ current: session }), []);
  sessionRef.current = session;
  const api = useMemo<DashboardApi>(() => {
    const http = createHttpClient({
      token: () => sessionRef.current?.token,
      // An expired or revoked token: back to sign-in rather than a page of errors.
      onUnauthorized: () => setSession(undefined),
    });
    const merchantId = () => sessionRef.current?.merchantId ?? '';
    return {
      auth: authApi(http),
      keys: apiKeysApi(http, merchantId),
      analytics: analyticsApi(http),
      routing: routingApi(http, merchantId),
      genai: genaiApi(http),
      costs: costsApi(http, merchantId),
      autopilot: autopilotApi(http, merchantId),
      volumeCommitment: volumeCommitmentApi(http, merchantId),
      experiments: experimentsApi(http),
      members: membersApi(http),
      account: accountApi(http),
      platform: platformApi(http),
    };
  }, []);

  // Forgot/reset password and email verification: reached from sign-in or a mailed link, with or without a session.
  if (publicLocation !== undefined) return <PublicPage location={publicLocation} account={api.account} onSessionsEnded={() => setSession(undefined)} />;
  if (session === undefined) return <SignInPage auth={api.auth} onSession={setSession} />;
  const context = { api, session, setSession };
  return (
    <DashboardContext.Provider value={context}>
      {session.merchantId === '' ? (
        <OnboardingPage />
      ) : (
        <Layout location={location}>
          <PageOutlet location={location} />
        </Layout>
      )}
    </DashboardContext.Provider>
  );
}
