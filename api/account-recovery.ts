import type { FastifyInstance } from 'fastify';
import type { AuthAttemptRecorder } from '../src/auth/auth-attempt.js';
import { AccountRecovery } from '../src/auth/password-reset/account-recovery.js';
import type { Config } from '../src/config/load-config.js';
import type { Mailer } from '../src/ports/mail.js';
import type { AppDeps } from './app-deps.js';

/** Mail is dropped (with a warning naming its purpose) when the composition root gave no mailer (library use). */
function droppingMailer(deps: AppDeps): Mailer {
  return {
    async send(message) {
      deps.logger.warn({ purpose: message.purpose }, 'no mailer configured: mail dropped');
    },
  };
}

/**
 * The password change / reset / email verification use case of one app (issue 25), over the app's
 * state and the composition root's mailer. On close, mail still being delivered is awaited and the
 * mailer closed. Each action goes on the audit trail through `audit` (auth.attempted, credential password).
 */
export function createAccountRecovery(app: FastifyInstance, config: Config, deps: AppDeps, audit?: AuthAttemptRecorder): AccountRecovery {
  const mailer = deps.mailer ?? droppingMailer(deps);
  const recovery = new AccountRecovery({
    users: deps.state.users,
    credentials: deps.state.credentials,
    mailer,
    clock: deps.clock,
    logger: deps.logger,
    ...(audit !== undefined ? { audit } : {}),
    ...(deps.passwordHashing !== undefined ? { passwordHashing: deps.passwordHashing } : {}),
    settings: {
      resetTtlSeconds: config.passwordResetTtlSeconds,
      verificationTtlSeconds: config.emailVerificationTtlSeconds,
      sessionTtlSeconds: deps.tokens.ttlSeconds,
      publicBaseUrl: config.publicBaseUrl ?? `http://${config.host}:${config.port}`,
    },
  });
  app.addHook('onClose', async () => {
    await recovery.settled();
    await mailer.close?.();
  });
  return recovery;
}
