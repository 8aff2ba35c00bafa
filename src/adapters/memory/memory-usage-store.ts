import type { BudgetPeriod } from '../../governance/key-policy.js';
import { minuteId, periodId, secondsLeftInMinute, secondsLeftInPeriod } from '../../governance/usage-windows.js';
import type { UsageStore } from '../../ports/state-store.js';
import type { JournaledTables } from './journaled-tables.js';

/** Tables of the embedded usage store; spend and counted event ids are journaled with the rest. */
export const usageTables = ['usageSpend', 'usageEvents'] as const;

/** Day buckets live 2 days, month buckets 32: long enough to be read for the whole period. */
const spendTtlMs: Readonly<Record<BudgetPeriod, number>> = { day: 2 * 86_400_000, month: 32 * 86_400_000 };
/** An event id is remembered 40 days: longer than any period it could be counted in. */
const eventTtlMs = 40 * 86_400_000;

/**
 * The embedded `UsageStore`: the same semantics as the Redis scripts, in process. Each method runs
 * to completion without awaiting, so no two admissions interleave (the event loop is the lock).
 * Minute counters and leases are memory only: they matter for a minute, or for one request.
 */
export function createMemoryUsageStore(db: JournaledTables): UsageStore {
  const requests = new Map<string, number>();
  const tokens = new Map<string, number>();
  /** keyId → leaseId → { expiresAtMs, reserveUsd } */
  const leases = new Map<string, Map<string, { expiresAtMs: number; reserveUsd: number }>>();

  const leasesOf = (keyId: string, nowMs: number) => {
    let own = leases.get(keyId);
    if (own === undefined) {
      own = new Map();
      leases.set(keyId, own);
    }
    // A lease its replica never released (it died mid-request) stops counting at its expiry.
    for (const [leaseId, lease] of own) if (lease.expiresAtMs <= nowMs) own.delete(leaseId);
    return own;
  };
  const spendOf = (keyId: string, period: BudgetPeriod, atMs: number) => db.get<number>('usageSpend', `${keyId}:${periodId(period, atMs)}`) ?? 0;
  const bump = (counter: Map<string, number>, key: string, by: number) => counter.set(key, (counter.get(key) ?? 0) + by);
  /** Drops minute counters older than the last minute once there are many (keys end in `:<minute>`). */
  const prune = (nowMs: number) => {
    if (requests.size + tokens.size < 50_000) return;
    const current = Number(minuteId(nowMs));
    for (const counter of [requests, tokens])
      for (const key of counter.keys()) if (Number(key.slice(key.lastIndexOf(':') + 1)) < current - 1) counter.delete(key);
  };

  return {
    async admit(keyId, limits, request) {
      prune(request.nowMs);
      const minute = `${keyId}:${minuteId(request.nowMs)}`;
      const own = leasesOf(keyId, request.nowMs);
      if (limits.rpm !== undefined && (requests.get(minute) ?? 0) >= limits.rpm)
        return { admitted: false, limit: 'rpm', retryAfterS: secondsLeftInMinute(request.nowMs) };
      if (limits.tpm !== undefined && (tokens.get(minute) ?? 0) >= limits.tpm)
        return { admitted: false, limit: 'tpm', retryAfterS: secondsLeftInMinute(request.nowMs) };
      if (limits.maxConcurrent !== undefined && own.size >= limits.maxConcurrent) return { admitted: false, limit: 'max_concurrent', retryAfterS: 1 };
      if (limits.budget !== undefined) {
        let reserved = 0;
        for (const lease of own.values()) reserved += lease.reserveUsd;
        const spent = spendOf(keyId, limits.budget.period, request.nowMs);
        if (spent >= limits.budget.amountUsd || spent + reserved + request.reserveUsd > limits.budget.amountUsd) {
          return { admitted: false, limit: 'budget', retryAfterS: secondsLeftInPeriod(limits.budget.period, request.nowMs) };
        }
      }
      bump(requests, minute, 1);
      own.set(request.leaseId, { expiresAtMs: request.nowMs + request.leaseTtlMs, reserveUsd: request.reserveUsd });
      return { admitted: true };
    },
    async release(keyId, leaseId) {
      const own = leases.get(keyId);
      own?.delete(leaseId);
      if (own?.size === 0) leases.delete(keyId);
    },
    async recordSpend(keyId, spend) {
      const marker = `${keyId}:${spend.eventId}`;
      if (db.has('usageEvents', marker)) return false;
      db.set('usageEvents', marker, 1, eventTtlMs);
      bump(tokens, `${keyId}:${minuteId(spend.atMs)}`, spend.tokens);
      for (const period of ['day', 'month'] as const) {
        if (spend.costUsd > 0)
          db.set('usageSpend', `${keyId}:${periodId(period, spend.atMs)}`, spendOf(keyId, period, spend.atMs) + spend.costUsd, spendTtlMs[period]);
      }
      return true;
    },
    async usage(keyId, period, nowMs) {
      const minute = `${keyId}:${minuteId(nowMs)}`;
      const own = leasesOf(keyId, nowMs);
      let reservedUsd = 0;
      for (const lease of own.values()) reservedUsd += lease.reserveUsd;
      return {
        requestsThisMinute: requests.get(minute) ?? 0,
        tokensThisMinute: tokens.get(minute) ?? 0,
        inFlight: own.size,
        spendThisPeriodUsd: spendOf(keyId, period, nowMs),
        reservedUsd,
      };
    },
  };
}
