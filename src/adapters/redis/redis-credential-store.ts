import type { CredentialStore, OneTimeTokenPurpose, SessionCutoff } from '../../ports/state/credential-store.js';
import { parseStored, type RedisContext } from './redis-context.js';

/**
 * Credential changes in Redis: the password hash is a field of the user hash (set only when the user
 * exists), one-time tokens are `GETDEL`-consumed keys holding the user id under their SHA-256, and
 * the session cutoff is one JSON key per user that every replica reads when it verifies a token.
 */
export function createRedisCredentialStore(context: RedisContext): CredentialStore {
  const { keys, clock } = context;
  const tokenKey = (purpose: OneTimeTokenPurpose, tokenHash: string): string => keys.oneTimeToken(purpose, tokenHash);
  return {
    setPasswordHash: (userId, passwordHash) =>
      context.call('credentials.setPasswordHash', async (redis) => (await redis.updateHashIfExists(keys.user(userId), 'passwordHash', passwordHash)) !== null),
    markEmailVerified: (userId) =>
      context.call('credentials.markEmailVerified', async (redis) => {
        await redis.set(keys.userEmailVerified(userId), '1');
      }),
    isEmailVerified: (userId) => context.call('credentials.isEmailVerified', async (redis) => (await redis.exists(keys.userEmailVerified(userId))) === 1),
    saveOneTimeToken: (purpose, tokenHash, userId, expiresAtMs) =>
      context.call('credentials.saveOneTimeToken', async (redis) => {
        await redis.set(tokenKey(purpose, tokenHash), userId, 'PX', Math.max(1, Math.ceil(expiresAtMs - clock.now())));
      }),
    consumeOneTimeToken: (purpose, tokenHash) =>
      context.call('credentials.consumeOneTimeToken', async (redis) => (await redis.getdel(tokenKey(purpose, tokenHash))) ?? undefined),
    setSessionCutoff: (userId, cutoff, ttlMs) =>
      context.call('credentials.setSessionCutoff', async (redis) => {
        await redis.set(keys.sessionCutoff(userId), JSON.stringify(cutoff), 'PX', Math.max(1000, Math.ceil(ttlMs)));
        await context.replicated(redis, keys.sessionCutoff(userId));
      }),
    async sessionCutoff(userId) {
      const [value] = await context.pipelined('credentials.sessionCutoff', (pipeline) => {
        pipeline.get(keys.sessionCutoff(userId));
      });
      return typeof value === 'string' ? parseStored<SessionCutoff>(value) : undefined;
    },
  };
}
