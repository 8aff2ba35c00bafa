import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { accountApi } from '../api/account-api';
import type { analyticsApi } from '../api/analytics-api';
import type { apiKeysApi } from '../api/api-keys-api';
import type { authApi } from '../api/auth-api';
import type { autopilotApi } from '../api/autopilot-api';
import type { volumeCommitmentApi } from '../api/volume-commitment-api';
import type { costsApi } from '../api/costs-api';
import type { experimentsApi } from '../api/experiments-api';
import type { genaiApi } from '../api/genai-api';
import type { membersApi } from '../api/members-api';
import type { platformApi } from '../api/platform-api';
import type { routingApi } from '../api/routing-api';
import type { Session } from './session-store';

/** Every typed API of the service, bound to the current session. */
export interface DashboardApi {
  readonly auth: ReturnType<typeof authApi>;
  readonly keys: ReturnType<typeof apiKeysApi>;
  readonly analytics: ReturnType<typeof analyticsApi>;
  readonly routing: ReturnType<typeof routingApi>;
  readonly genai: ReturnType<typeof genaiApi>;
  readonly costs: ReturnType<typeof costsApi>;
  readonly autopilot: ReturnType<typeof autopilotApi>;
  readonly volumeCommitment: ReturnType<typeof volumeCommitmentApi>;
  readonly experiments: ReturnType<typeof experimentsApi>;
  readonly members: ReturnType<typeof membersApi>;
  readonly account: ReturnType<typeof accountApi>;
  readonly platform: ReturnType<typeof platformApi>;
}

export interface DashboardContextValue {
  readonly api: DashboardApi;
  readonly session: Session;
  /** Replaces the session (switch-merchant, onboarding) or ends it (undefined). */
  setSession(session: Session | undefined): void;
}

export const DashboardContext = createContext<DashboardContextValue | undefined>(undefined);

export function useDashboard(): DashboardContextValue {
  const value = useContext(DashboardContext);
  if (value === undefined) throw new Error('useDashboard outside DashboardContext');
  return value;
}
