import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MerchantRole } from '../../src/ports/state-store.js';

/** A session user's live role in a merchant (undefined: not, or no longer, a member). */
export type RoleOf = (userId: string, merchantId: string) => Promise<MerchantRole | undefined>;

interface RoleRead {
  readonly userId: string;
  readonly merchantId: string;
  readonly role: Promise<MerchantRole | undefined>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The session's role as {@link sessionRoleOf} read it for this request (null before). */
    sessionRoleRead: RoleRead | null;
  }
}

/** Gives every request the slot {@link sessionRoleOf} fills (registered once, before any route). */
export function registerSessionRole(app: FastifyInstance): void {
  app.decorateRequest('sessionRoleRead', null);
}

/**
 * The session's role as read once per request: the membership check (onRequest) and the guard's
 * role check (preHandler) both need it, and on Redis each read is a round trip. The first caller
 * reads it; the other gets the same answer. Held on the request itself (a WeakMap entry per request
 * cost more than the lookup it saved).
 */
export function sessionRoleOf(request: FastifyRequest, roleOf: RoleOf, userId: string, merchantId: string): Promise<MerchantRole | undefined> {
  const read = request.sessionRoleRead;
  if (read != null && read.userId === userId && read.merchantId === merchantId) return read.role;
  const role = roleOf(userId, merchantId);
  request.sessionRoleRead = { userId, merchantId, role };
  return role;
}
