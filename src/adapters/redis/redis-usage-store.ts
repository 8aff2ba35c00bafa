import { endUserTag } from '../../governance/end-user.js';
import type { BudgetPeriod, LimitName, RateLimits } from '../../governance/key-policy.js';
import { minuteId, periodId, secondsLeftInMinute, secondsLeftInPeriod } from '../../governance/usage-windows.js';
import type { SpendRecord, UsageStore } from '../../ports/state-store.js';
import type { RedisContext } from './redis-context.js';

const dayTtlS = 2 * 86_400;
const monthTtlS = 32 * 86_400;
/** An event id is remembered 40 days: longer than any period it could be counted in. */
const markerTtlS = 40 * 86_400;

/**
 * Per-key limits on Redis: `admit` is one script (admit-usage.lua) that reads every counter and
 * takes the slot atomically; `recordSpend` one script (record-spend.lua) that counts an event once,
 * for the key and its end user together (one marker, as the memory store keeps it).
 * All of a key's counters share its `{usage:<keyId>}` hash tag, its end users' too (`u:<tag>:…`),
 * so the one admission script covers the key and an end user on a Redis Cluster as well.
 */
export function createRedisUsageStore(context: RedisContext): UsageStore {
  /** A counter of the key, or of one of its end users (`u:<tag>:<name>`), always under the key's hash tag. */
  const key = (keyId: string, name: string, endUser?: string) => context.keys.usage(keyId, endUser === undefined ? name : `u:${endUserTag(endUser)}:${name}`);
  const leasesKey = (keyId: string, endUser?: string) => key(keyId, 'leases', endUser);
  const reservationsKey = (keyId: string, endUser?: string) => key(keyId, 'reserved', endUser);
  /** The five counters admit-usage.lua reads of one holder. */
  const admissionKeys = (keyId: string, period: BudgetPeriod, nowMs: number, endUser?: string) => {
    const minute = minuteId(nowMs);
    return [
      key(keyId, `requests:${minute}`, endUser),
      key(keyId, `tokens:${minute}`, endUser),
      leasesKey(keyId, endUser),
      reservationsKey(keyId, endUser),
      key(keyId, `spend:${periodId(period, nowMs)}`, endUser),
    ] as const;
  };
  /** The five limit arguments of one holder (a negative limit means none). */
  const limitArgs = (limits: RateLimits, nowMs: number) => [
    String(limits.rpm ?? -1),
    String(limits.tpm ?? -1),
    String(limits.maxConcurrent ?? -1),
    String(limits.budget?.amountUsd ?? -1),
    String(secondsLeftInPeriod(limits.budget?.period ?? 'day', nowMs)),
  ];
  /** The three counters record-spend.lua adds an event to, of one holder. */
  const spendKeys = (keyId: string, spend: SpendRecord, endUser?: string) =>
    [
      key(keyId, `tokens:${minuteId(spend.atMs)}`, endUser),
      key(keyId, `spend:${periodId('day', spend.atMs)}`, endUser),
      key(keyId, `spend:${periodId('month', spend.atMs)}`, endUser),
    ] as const;

  return {
    admit: (keyId, limits, request, endUser) =>
      context.call('usage.admit', async (redis) => {
        const common = [
          String(request.nowMs),
          String(request.reserveUsd),
          request.leaseId,
          String(request.leaseTtlMs),
          String(secondsLeftInMinute(request.nowMs)),
        ];
        const keyCounters = admissionKeys(keyId, limits.budget?.period ?? 'day', request.nowMs);
        const [verdict, retry, holder] =
          endUser === undefined
            ? await redis.admitUsage(...keyCounters, ...common, ...limitArgs(limits, request.nowMs))
            : await redis.admitUsageForEndUser(
                ...keyCounters,
                ...admissionKeys(keyId, endUser.limits.budget?.period ?? 'day', request.nowMs, endUser.endUser),
                ...common,
                ...limitArgs(limits, request.nowMs),
                ...limitArgs(endUser.limits, request.nowMs),
              );
        if (verdict !== 'ok')
          return { admitted: false, limit: verdict as LimitName, retryAfterS: Number(retry), holder: holder === 'end_user' ? 'end_user' : 'key' };
        await context.replicated(redis, reservationsKey(keyId));
        return { admitted: true };
      }),
    release: (keyId, leaseId, endUser) =>
      context.call('usage.release', async (redis) => {
        const multi = redis.multi().zrem(leasesKey(keyId), leaseId).hdel(reservationsKey(keyId), leaseId);
        if (endUser !== undefined) multi.zrem(leasesKey(keyId, endUser), leaseId).hdel(reservationsKey(keyId, endUser), leaseId);
        await multi.exec();
      }),
    recordSpend: (keyId, spend, endUser) =>
      context.call('usage.recordSpend', async (redis) => {
        const marker = key(keyId, `event:${spend.eventId}`);
        const args = [String(spend.tokens), String(spend.costUsd), String(markerTtlS), String(dayTtlS), String(monthTtlS)];
        // One script, one marker: the key and its end user are counted together, once per event.
        const counted =
          endUser === undefined
            ? await redis.recordSpend(marker, ...spendKeys(keyId, spend), ...args)
            : await redis.recordSpendForEndUser(marker, ...spendKeys(keyId, spend), ...spendKeys(keyId, spend, endUser), ...args);
        await context.replicated(redis, marker);
        return counted === 1;
      }),
    usage: (keyId, period: BudgetPeriod, nowMs, endUser) =>
      context.call('usage.read', async (redis) => {
        const minute = minuteId(nowMs);
        const replies = await redis
          .multi()
          .zremrangebyscore(leasesKey(keyId, endUser), '-inf', nowMs)
          .get(key(keyId, `requests:${minute}`, endUser))
          .get(key(keyId, `tokens:${minute}`, endUser))
          .zcard(leasesKey(keyId, endUser))
          .get(key(keyId, `spend:${periodId(period, nowMs)}`, endUser))
          .hvals(reservationsKey(keyId, endUser))
          .exec();
        const value = (index: number): unknown => replies?.[index]?.[1];
        const reserved = ((value(5) as string[] | undefined) ?? []).reduce((sum, amount) => sum + Number(amount), 0);
        return {
          requestsThisMinute: Number(value(1) ?? 0),
          tokensThisMinute: Number(value(2) ?? 0),
          inFlight: Number(value(3) ?? 0),
          spendThisPeriodUsd: Number(value(4) ?? 0),
          reservedUsd: reserved,
        };
      }),
  };
}
