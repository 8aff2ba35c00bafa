import type { FastifyInstance } from 'fastify';
import type { MerchantRole } from '../../src/ports/state-store.js';
import { sendAuthFailure } from './authentication.js';
import { sessionRoleOf } from './session-role.js';
import { routeConfigOf } from '../route-config.js';

export interface MembershipCheckOptions {
  /** The user's live role in the merchant; undefined when not a member (read from the shared store: every replica agrees). */
  readonly roleOf: (userId: string, merchantId: string) => Promise<MerchantRole | undefined>;
}

/**
 * A standard session belongs to a membership: once the user is removed from the session's
 * merchant (on any replica), the token is refused on every replica at its next request, 401
 * `Invalid or expired token` as a revoked one (a removed member keeps no read access either).
 * Logout still passes (`acceptsRevokedSession`); SSO handoff and super-admin view sessions hold no
 * membership and are bounded by their grant instead; a session with no merchant yet is not checked.
 * Registered after the guard, so `request.credential` is set.
 */
export function registerMembershipCheck(app: FastifyInstance, options: MembershipCheckOptions): void {
  // Synchronous unless there is a membership to read (API keys, public routes: no promise at all).
  app.addHook('onRequest', (request, reply, done) => {
    const credential = request.credential;
    if (credential?.kind !== 'session') return done();
    const { claims } = credential;
    if ((claims.tokenType ?? 'standard') !== 'standard' || claims.merchantId === '') return done();
    if (routeConfigOf(request).acceptsRevokedSession === true) return done();
    // Returned, not awaited here: fastify waits for it, and a refusal rejects it (the guard's 401).
    return sessionRoleOf(request, options.roleOf, claims.userId, claims.merchantId).then((role) => {
      if (role !== undefined) return;
      request.log.info({ userId: claims.userId, merchantId: claims.merchantId }, 'session refused: no longer a member of its merchant');
      sendAuthFailure(request, reply, { kind: 'invalid_token', reason: 'unknown_user' });
    });
  });
}
