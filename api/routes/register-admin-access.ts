import type { FastifyInstance } from 'fastify';
import type { AdminSecretGuard } from '../../src/auth/admin-secret.js';
import type { AuthAttemptRecorder } from '../../src/auth/auth-attempt.js';
import { AdminSso } from '../../src/auth/sso/admin-sso.js';
import { parseSuperAdminRoster } from '../../src/auth/super-admin/roster.js';
import { SuperAdminView } from '../../src/auth/super-admin/super-admin-view.js';
import type { TokenService } from '../../src/auth/token-service.js';
import type { Config } from '../../src/config/load-config.js';
import type { StateStore } from '../../src/ports/state-store.js';
import { adminSsoRoutes } from './auth-admin-sso.js';
import { superAdminRoutes } from './auth-super-admin.js';

export interface AdminAccessWiring {
  readonly state: StateStore;
  readonly tokens: TokenService;
  readonly adminSecret: AdminSecretGuard;
  readonly audit: AuthAttemptRecorder;
}

/** Admin SSO codes and the super-admin view (issue 25), built from the config and the app's services. */
export async function registerAdminAccessRoutes(app: FastifyInstance, config: Config, wiring: AdminAccessWiring): Promise<void> {
  const { state, tokens, adminSecret, audit } = wiring;
  const sso = new AdminSso(
    { codeTtlSeconds: config.ssoCodeTtlSeconds, sessionTtlSeconds: config.ssoSessionTtlSeconds },
    { sessions: state.sessions, merchants: state.merchants, tokens },
  );
  await app.register(async (scope) => adminSsoRoutes(scope, { sso, adminSecret, adminSecretHeader: config.adminSecretHeader, audit }));
  const view = new SuperAdminView({ roster: parseSuperAdminRoster(config.superAdminEmails), users: state.users, merchants: state.merchants, tokens });
  await app.register(async (scope) => superAdminRoutes(scope, { view, audit }));
}
