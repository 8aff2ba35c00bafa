import type { BudgetPeriod } from '../../governance/key-policy.js';
import { minuteId, periodId, secondsLeftInMinute, secondsLeftInPeriod } from '../../governance/usage-windows.js';
import { endUserTag } from '../../governance/end-user.js';
import type { LimitName, RateLimits } from '../../governance/key-policy.js';
import type { AdmissionRequest, UsageStore } from '../../ports/state-store.js';
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
  /** keyId (or `<keyId>:u:<tag>` for an end user) → leaseId → { expiresAtMs, reserveUsd } */
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

  /** The counters' owner: the key, or one end user of it (`<keyId>:u:<tag>`). */
  const subjectOf = (keyId: string, endUser: string | undefined) => (endUser === undefined ? keyId : `${keyId}:u:${endUserTag(endUser)}`);
  const refusal = (subject: string, limits: RateLimits, request: AdmissionRequest): { limit: LimitName; retryAfterS: number } | undefined => {
    const minute = `${subject}:${minuteId(request.nowMs)}`;
    if (limits.rpm !== undefined && (requests.get(minute) ?? 0) >= limits.rpm) return { limit: 'rpm', retryAfterS: secondsLeftInMinute(request.nowMs) };
    if (limits.tpm !== undefined && (tokens.get(minute) ?? 0) >= limits.tpm) return { limit: 'tpm', retryAfterS: secondsLeftInMinute(request.nowMs) };
    const own = leasesOf(subject, request.nowMs);
    if (limits.maxConcurrent !== undefined && own.size >= limits.maxConcurrent) return { limit: 'max_concurrent', retryAfterS: 1 };
    if (limits.budget !== undefined) {
      let reserved = 0;
      for (const lease of own.values()) reserved += lease.reserveUsd;
      const spent = spendOf(subject, limits.budget.period, request.nowMs);
      if (spent >= limits.budget.amountUsd || spent + reserved + request.reserveUsd > limits.budget.amountUsd)
        return { limit: 'budget', retryAfterS: secondsLeftInPeriod(limits.budget.period, request.nowMs) };
    }
    return undefined;
  };
  const take = (subject: string, request: AdmissionRequest) => {
    bump(requests, `${subject}:${minuteId(request.nowMs)}`, 1);
    leasesOf(subject, request.nowMs).set(request.leaseId, { expiresAtMs: request.nowMs + request.leaseTtlMs, reserveUsd: request.reserveUsd });
  };
  const drop = (subject: string, leaseId: string) => {
    const own = leases.get(subject);
    own?.delete(leaseId);
    if (own?.size === 0) leases.delete(subject);
  };

  return {
    async admit(keyId, limits, request, endUser) {
      prune(request.nowMs);
      // Both holders are checked before either is counted: a refusal by one takes nothing from the other.
      const keyRefusal = refusal(keyId, limits, request);
      if (keyRefusal !== undefined) return { admitted: false, ...keyRefusal, holder: 'key' };
      const userSubject = endUser === undefined ? undefined : subjectOf(keyId, endUser.endUser);
      if (userSubject !== undefined && endUser !== undefined) {
        const userRefusal = refusal(userSubject, endUser.limits, request);
        if (userRefusal !== undefined) return { admitted: false, ...userRefusal, holder: 'end_user' };
      }
      take(keyId, request);
      if (userSubject !== undefined) take(userSubject, request);
      return { admitted: true };
    },
    async release(keyId, leaseId, endUser) {
      drop(keyId, leaseId);
      if (endUser !== undefined) drop(subjectOf(keyId, endUser), leaseId);
    },
    async recordSpend(keyId, spend, endUser) {
      const marker = `${keyId}:${spend.eventId}`;
      if (db.has('usageEvents', marker)) return false;
      db.set('usageEvents', marker, 1, eventTtlMs);
      for (const subject of endUser === undefined ? [keyId] : [keyId, subjectOf(keyId, endUser)]) {
        bump(tokens, `${subject}:${minuteId(spend.atMs)}`, spend.tokens);
        for (const period of ['day', 'month'] as const) {
          if (spend.costUsd > 0)
            db.set('usageSpend', `${subject}:${periodId(period, spend.atMs)}`, spendOf(subject, period, spend.atMs) + spend.costUsd, spendTtlMs[period]);
        }
      }
      return true;
    },
    async usage(keyId, period, nowMs, endUser) {
      const subject = subjectOf(keyId, endUser);
      const minute = `${subject}:${minuteId(nowMs)}`;
      const own = leasesOf(subject, nowMs);
      let reservedUsd = 0;
      for (const lease of own.values()) reservedUsd += lease.reserveUsd;
      return {
        requestsThisMinute: requests.get(minute) ?? 0,
        tokensThisMinute: tokens.get(minute) ?? 0,
        inFlight: own.size,
        spendThisPeriodUsd: spendOf(subject, period, nowMs),
        reservedUsd,
      };
    },
  };
}
