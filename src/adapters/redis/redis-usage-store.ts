import type { BudgetPeriod } from '../../governance/key-policy.js';
import { minuteId, periodId, secondsLeftInMinute, secondsLeftInPeriod } from '../../governance/usage-windows.js';
import type { LimitName } from '../../governance/key-policy.js';
import type { UsageStore } from '../../ports/state-store.js';
import type { RedisContext } from './redis-context.js';

const dayTtlS = 2 * 86_400;
const monthTtlS = 32 * 86_400;
/** An event id is remembered 40 days: longer than any period it could be counted in. */
const markerTtlS = 40 * 86_400;

/**
 * Per-key limits on Redis: `admit` is one script (admit-usage.lua) that reads every counter and
 * takes the slot atomically; `recordSpend` one script (record-spend.lua) that counts an event once.
 * All of a key's counters share its `{usage:<keyId>}` hash tag.
 */
export function createRedisUsageStore(context: RedisContext): UsageStore {
  const key = (keyId: string, name: string) => context.keys.usage(keyId, name);
  const leasesKey = (keyId: string) => key(keyId, 'leases');
  const reservationsKey = (keyId: string) => key(keyId, 'reserved');

  return {
    admit: (keyId, limits, request) =>
      context.call('usage.admit', async (redis) => {
        const minute = minuteId(request.nowMs);
        const period = limits.budget?.period ?? 'day';
        const [verdict, retry] = await redis.admitUsage(
          key(keyId, `requests:${minute}`),
          key(keyId, `tokens:${minute}`),
          leasesKey(keyId),
          reservationsKey(keyId),
          key(keyId, `spend:${periodId(period, request.nowMs)}`),
          String(request.nowMs),
          String(limits.rpm ?? -1),
          String(limits.tpm ?? -1),
          String(limits.maxConcurrent ?? -1),
          String(limits.budget?.amountUsd ?? -1),
          String(request.reserveUsd),
          request.leaseId,
          String(request.leaseTtlMs),
          String(secondsLeftInMinute(request.nowMs)),
          String(secondsLeftInPeriod(period, request.nowMs)),
        );
        if (verdict !== 'ok') return { admitted: false, limit: verdict as LimitName, retryAfterS: Number(retry) };
        await context.replicated(redis, reservationsKey(keyId));
        return { admitted: true };
      }),
    release: (keyId, leaseId) =>
      context.call('usage.release', async (redis) => {
        await redis.multi().zrem(leasesKey(keyId), leaseId).hdel(reservationsKey(keyId), leaseId).exec();
      }),
    recordSpend: (keyId, spend) =>
      context.call('usage.recordSpend', async (redis) => {
        const counted = await redis.recordSpend(
          key(keyId, `event:${spend.eventId}`),
          key(keyId, `tokens:${minuteId(spend.atMs)}`),
          key(keyId, `spend:${periodId('day', spend.atMs)}`),
          key(keyId, `spend:${periodId('month', spend.atMs)}`),
          String(spend.tokens),
          String(spend.costUsd),
          String(markerTtlS),
          String(dayTtlS),
          String(monthTtlS),
        );
        await context.replicated(redis, key(keyId, `event:${spend.eventId}`));
        return counted === 1;
      }),
    usage: (keyId, period: BudgetPeriod, nowMs) =>
      context.call('usage.read', async (redis) => {
        const minute = minuteId(nowMs);
        const replies = await redis
          .multi()
          .zremrangebyscore(leasesKey(keyId), '-inf', nowMs)
          .get(key(keyId, `requests:${minute}`))
          .get(key(keyId, `tokens:${minute}`))
          .zcard(leasesKey(keyId))
          .get(key(keyId, `spend:${periodId(period, nowMs)}`))
          .hvals(reservationsKey(keyId))
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
