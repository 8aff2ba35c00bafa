import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthAttemptRecorder } from '../../src/auth/auth-attempt.js';
import { attemptOriginOf } from './authentication.js';
import { routeConfigOf } from '../route-config.js';

/** Routes that publish their own super-admin audit event (no second one per request). */
const selfAudited = new Set(['/auth/super-admin/exit', '/auth/super-admin/enter-merchant', '/auth/super-admin/lookup']);

/**
 * Every request answered to a super-admin view session becomes an `auth.attempted` event
 * (credential `super_admin`, action `view_request METHOD route STATUS`) in the viewed merchant's
 * log, naming the admin (user id and email): what a super-admin did inside a merchant is on the
 * spine and in /analytics/log-summaries. Registered after the guard, so `request.credential` is set.
 */
export function registerViewModeAudit(app: FastifyInstance, audit: AuthAttemptRecorder): void {
  // Synchronous: every request passes it, and only super-admin view sessions have anything to do.
  app.addHook('onResponse', (request, reply, done) => {
    recordViewRequest(request, reply, audit);
    done();
  });
}

function recordViewRequest(request: FastifyRequest, reply: FastifyReply, audit: AuthAttemptRecorder): void {
  const credential = request.credential;
  if (credential?.kind !== 'session' || credential.claims.tokenType !== 'super_admin_view') return;
  const route = routeConfigOf(request).url ?? request.url;
  if (selfAudited.has(route)) return;
  const { claims } = credential;
  audit({
    credential: 'super_admin',
    outcome: reply.statusCode < 400 ? 'success' : 'failure',
    reason: reply.statusCode < 400 ? null : reply.statusCode === 403 ? 'unsupported_session' : null,
    merchantId: claims.merchantId,
    subject: claims.email,
    userId: claims.userId,
    keyId: null,
    origin: attemptOriginOf(request),
    action: `view_request ${request.method} ${route} ${reply.statusCode}`,
  });
}
