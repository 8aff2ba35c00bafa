import type { SessionStore } from '../../ports/state-store.js';
import type { RedisContext } from './redis-context.js';

/** 1 s: decision-engine's floor for a revocation TTL (a token about to expire is still denied). */
const minimumRevocationMs = 1000;

/**
 * Revoked JWT ids (decision-engine `jwt_revoked:<jti>`, kept until the token's own expiry) and
 * login-failure counters.
 *
 * @remarks The login-failure "sliding window" is approximated by one counter whose TTL is renewed on
 * every failure (INCR + EXPIRE in one MULTI): it resets after `windowSeconds` without a failure,
 * so a steady attacker stays counted, which is the property lockout needs. Exact per-attempt
 * expiry would need a sorted set per subject.
 */
export function createRedisSessionStore(context: RedisContext): SessionStore {
  const { keys, clock } = context;
  return {
    revokeToken: (tokenId, expiresAtMs) =>
      context.call('sessions.revokeToken', async (redis) => {
        const ttlMs = Math.max(minimumRevocationMs, Math.ceil(expiresAtMs - clock.now()));
        await redis.set(keys.revokedToken(tokenId), '1', 'PX', ttlMs);
        await context.replicated(redis, keys.revokedToken(tokenId));
      }),
    async isTokenRevoked(tokenId) {
      const [exists] = await context.pipelined('sessions.isTokenRevoked', (pipeline) => {
        pipeline.exists(keys.revokedToken(tokenId));
      });
      return exists === 1;
    },
    recordLoginFailure: (subject, windowSeconds) =>
      context.call('sessions.recordLoginFailure', async (redis) => {
        const key = keys.loginFailures(subject);
        const replies = await redis.multi().incr(key).expire(key, windowSeconds).exec();
        const [error, count] = replies?.[0] ?? [new Error('MULTI aborted'), null];
        if (error) throw error;
        return Number(count);
      }),
    loginFailures: (subject) => context.call('sessions.loginFailures', async (redis) => Number((await redis.get(keys.loginFailures(subject))) ?? 0)),
    clearLoginFailures: (subject) =>
      context.call('sessions.clearLoginFailures', async (redis) => {
        await redis.del(keys.loginFailures(subject));
      }),
    putOneTimeCode: (purpose, codeHash, payload, ttlMs) =>
      context.call('sessions.putOneTimeCode', async (redis) => {
        await redis.set(keys.oneTimeCode(purpose, codeHash), payload, 'PX', Math.max(1, Math.ceil(ttlMs)));
      }),
    // GETDEL (Redis 6.2+): the read and the delete are one command, so a code is redeemed once.
    consumeOneTimeCode: (purpose, codeHash) =>
      context.call('sessions.consumeOneTimeCode', async (redis) => (await redis.getdel(keys.oneTimeCode(purpose, codeHash))) ?? undefined),
  };
}
