import type { Membership, MerchantRole, UserRecord, UserStore } from '../../ports/state-store.js';
import type { RedisContext } from './redis-context.js';

function userFields(user: UserRecord): string[] {
  return [
    'userId',
    user.userId,
    'email',
    user.email,
    'passwordHash',
    user.passwordHash,
    'currentMerchantId',
    user.currentMerchantId,
    'isActive',
    user.isActive ? '1' : '0',
    'createdAt',
    String(user.createdAt),
  ];
}

function toUser(fields: Record<string, string>): UserRecord | undefined {
  if (fields.userId === undefined) return undefined;
  return {
    userId: fields.userId,
    email: fields.email ?? '',
    passwordHash: fields.passwordHash ?? '',
    currentMerchantId: fields.currentMerchantId ?? '',
    isActive: fields.isActive === '1',
    createdAt: Number(fields.createdAt ?? 0),
  };
}

/**
 * Operator users: a hash per user, an email index (the uniqueness guard, claimed atomically with the
 * record by create-user.lua), a hash of memberships (merchant id → role) per user and its reverse
 * index (user id → role) per merchant, both written in one MULTI or script.
 *
 * @remarks Memberships come back sorted by merchant id; the port promises no order.
 */
export function createRedisUserStore(context: RedisContext): UserStore {
  const { keys } = context;

  const findById = (userId: string): Promise<UserRecord | undefined> =>
    context.call('users.findById', async (redis) => toUser(await redis.hgetall(keys.user(userId))));

  return {
    create: (user) =>
      context.call('users.create', async (redis) => {
        const created = await redis.createUser(keys.userEmail(user.email), keys.user(user.userId), user.userId, ...userFields(user));
        return created === 1 ? 'created' : 'exists';
      }),
    findByEmail: async (email) => {
      const userId = await context.call('users.findByEmail', (redis) => redis.get(keys.userEmail(email)));
      return userId === null ? undefined : findById(userId);
    },
    findById,
    setCurrentMerchant: (userId, merchantId) =>
      context.call('users.setCurrentMerchant', async (redis) => {
        // Unknown users are left alone (no partial record), as the embedded store does.
        await redis.updateHashIfExists(keys.user(userId), 'currentMerchantId', merchantId);
      }),
    addMembership: ({ userId, merchantId, role }) =>
      context.call('users.addMembership', async (redis) => {
        await redis.multi().hset(keys.userMemberships(userId), merchantId, role).hset(keys.merchantMembers(merchantId), userId, role).exec();
      }),
    addMembershipIfAbsent: ({ userId, merchantId, role }) =>
      context.call('users.addMembershipIfAbsent', async (redis) => {
        const added = await redis.addMembershipIfAbsent(keys.userMemberships(userId), keys.merchantMembers(merchantId), userId, merchantId, role);
        return added === 1 ? 'added' : 'exists';
      }),
    membersOf: (merchantId) =>
      context.call('users.membersOf', async (redis) => {
        const roles = await redis.hgetall(keys.merchantMembers(merchantId));
        return Object.keys(roles)
          .sort()
          .map((userId): Membership => ({ userId, merchantId, role: roles[userId] as MerchantRole }));
      }),
    roleIn: (userId, merchantId) =>
      context.call('users.roleIn', async (redis) => ((await redis.hget(keys.userMemberships(userId), merchantId)) ?? undefined) as MerchantRole | undefined),
    removeMembership: (userId, merchantId) =>
      context.call('users.removeMembership', async (redis) => {
        const results = await redis.multi().hdel(keys.userMemberships(userId), merchantId).hdel(keys.merchantMembers(merchantId), userId).exec();
        return results?.[0]?.[1] === 1;
      }),
    memberships: (userId) =>
      context.call('users.memberships', async (redis) => {
        const roles = await redis.hgetall(keys.userMemberships(userId));
        return Object.keys(roles)
          .sort()
          .map((merchantId): Membership => ({ userId, merchantId, role: roles[merchantId] as MerchantRole }));
      }),
  };
}
