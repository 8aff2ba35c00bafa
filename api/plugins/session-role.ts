import type { FastifyRequest } from 'fastify';
import type { MerchantRole } from '../../src/ports/state-store.js';

/** A session user's live role in a merchant (undefined: not, or no longer, a member). */
export type RoleOf = (userId: string, merchantId: string) => Promise<MerchantRole | undefined>;

const roles = new WeakMap<FastifyRequest, { readonly key: string; readonly role: Promise<MerchantRole | undefined> }>();

/**
 * The session's role as read once per request: the membership check (onRequest) and the guard's
 * role check (preHandler) both need it, and on Redis each read is a round trip. The first caller
 * reads it; the other gets the same answer.
 */
export function sessionRoleOf(request: FastifyRequest, roleOf: RoleOf, userId: string, merchantId: string): Promise<MerchantRole | undefined> {
  const key = `${userId}\u0000${merchantId}`;
  const read = roles.get(request);
  if (read !== undefined && read.key === key) return read.role;
  const role = roleOf(userId, merchantId);
  roles.set(request, { key, role });
  return role;
}
