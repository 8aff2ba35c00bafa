import type { AccessServices, AppDeps } from '../api/app-deps.js';
import { createRunCounterfactual, type RunCounterfactual } from '../src/analytics/counterfactual/run-counterfactual.js';
import { AuthService } from '../src/auth/auth-service.js';
import { memberChangeAuditor } from '../src/auth/members/audit-member-changes.js';
import { MerchantMembers } from '../src/auth/members/merchant-members.js';
import { authAttemptPublisher } from '../src/auth/publish-auth-attempts.js';
import { createTokenService } from '../src/auth/token-service.js';
import type { RoutingDefaults } from '../src/decision/routing-defaults.js';
import type { AnalyticsStore } from '../src/ports/analytics-store.js';

/** What the access use cases are built from: the process's state, bus, clock, logger and token settings. */
export type AccessWiring = Pick<AppDeps, 'state' | 'bus' | 'clock' | 'logger' | 'tokens' | 'passwordHashing' | 'loginThrottle'>;

/**
 * Sessions, logins and API keys (AuthService), team members (MerchantMembers) and their audit trail,
 * built here so `buildApp` only maps them onto routes (ARCHITECTURE: cli/ is the one composition root).
 */
export function createAccessServices(wiring: AccessWiring): AccessServices {
  const { users, apiKeys, sessions, merchants, credentials } = wiring.state;
  // credentials: a password change or reset cuts the user's older sessions (issue 25).
  const tokens = createTokenService(wiring.tokens, { sessions, credentials, clock: wiring.clock });
  // Logins and refused keys and admin secrets become auth.attempted events (never the secret itself).
  const audit = authAttemptPublisher(wiring.bus, { now: () => wiring.clock.now(), logger: wiring.logger });
  const auth = new AuthService({
    users,
    apiKeys,
    sessions,
    merchants,
    tokens,
    clock: wiring.clock,
    passwordHashing: wiring.passwordHashing,
    loginThrottle: wiring.loginThrottle,
    audit,
  });
  const members = new MerchantMembers({ users, clock: wiring.clock, passwordHashing: wiring.passwordHashing, audit: memberChangeAuditor(audit) });
  return { tokens, audit, auth, members };
}

/** The counterfactual replay of POST /analytics/counterfactual over the analytics store and merchant configs. */
export function createCounterfactual(wiring: {
  readonly analytics: AnalyticsStore | undefined;
  readonly state: AppDeps['state'];
  readonly routingDefaults: RoutingDefaults;
}): RunCounterfactual {
  return createRunCounterfactual({ analytics: wiring.analytics, configs: wiring.state.configs, defaults: wiring.routingDefaults });
}
