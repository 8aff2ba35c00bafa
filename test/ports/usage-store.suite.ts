import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UsageStore } from '../../src/ports/state-store.js';

/**
 * Two views of one usage store (two replicas of the service), or the same store twice where the
 * adapter has no replicas of its own (embedded).
 */
export interface UsageStoreFixture {
  readonly replicas: readonly [UsageStore, UsageStore];
  dispose(): Promise<void>;
}

/** 2026-11-23 10:00:30 UTC: mid-minute, mid-day. */
const now = Date.UTC(2026, 10, 23, 10, 0, 30);
const lease = (nowMs = now, reserveUsd = 0) => ({ leaseId: randomUUID(), reserveUsd, nowMs, leaseTtlMs: 60_000 });

/** The UsageStore contract (src/ports/state-store.ts), run against the memory and Redis adapters. */
export function usageStoreSuite(name: string, open: () => Promise<UsageStoreFixture>): void {
  describe(`UsageStore (${name})`, () => {
    let fixture: UsageStoreFixture;
    let keyId: string;
    beforeEach(async () => {
      fixture = await open();
      keyId = `key-${randomUUID()}`;
    });
    afterEach(async () => fixture.dispose());

    it('admits exactly rpm of 100 parallel requests spread over both replicas, and counts the minute', async () => {
      const [a, b] = fixture.replicas;
      const verdicts = await Promise.all(Array.from({ length: 100 }, (_, index) => (index % 2 === 0 ? a : b).admit(keyId, { rpm: 50 }, lease())));
      expect(verdicts.filter((verdict) => verdict.admitted)).toHaveLength(50);
      expect(verdicts.find((verdict) => !verdict.admitted)).toEqual({ admitted: false, limit: 'rpm', retryAfterS: 30, holder: 'key' });
      expect((await a.usage(keyId, 'day', now)).requestsThisMinute).toBe(50);
      // The next minute starts afresh.
      expect(await b.admit(keyId, { rpm: 50 }, lease(now + 30_000))).toEqual({ admitted: true });
    });

    it('holds max_concurrent until a slot is released, and frees the slot of a replica that never released it at its expiry', async () => {
      const [a, b] = fixture.replicas;
      const first = lease();
      const second = lease();
      expect(await a.admit(keyId, { maxConcurrent: 2 }, first)).toEqual({ admitted: true });
      expect(await b.admit(keyId, { maxConcurrent: 2 }, second)).toEqual({ admitted: true });
      expect(await b.admit(keyId, { maxConcurrent: 2 }, lease())).toEqual({ admitted: false, limit: 'max_concurrent', retryAfterS: 1, holder: 'key' });
      await a.release(keyId, first.leaseId);
      await a.release(keyId, first.leaseId);
      expect(await b.admit(keyId, { maxConcurrent: 2 }, lease())).toEqual({ admitted: true });
      expect((await a.usage(keyId, 'day', now)).inFlight).toBe(2);
      // `second`'s replica died: its slot counts until its lease expires, then no longer.
      expect((await a.usage(keyId, 'day', now + 60_001)).inFlight).toBe(0);
      expect(await a.admit(keyId, { maxConcurrent: 1 }, lease(now + 60_001))).toEqual({ admitted: true });
    });

    it('refuses a budget that spend plus reservations in flight would exceed, and counts each event once', async () => {
      const [a, b] = fixture.replicas;
      const limits = { budget: { amountUsd: 1, period: 'day' as const } };
      const held = lease(now, 0.6);
      expect(await a.admit(keyId, limits, held)).toEqual({ admitted: true });
      const refused = await b.admit(keyId, limits, lease(now, 0.5));
      expect(refused).toMatchObject({ admitted: false, limit: 'budget' });
      // Until 2026-11-24 00:00 UTC.
      expect(refused.admitted ? 0 : refused.retryAfterS).toBe(14 * 3600 - 30);
      expect(await a.recordSpend(keyId, { eventId: 'e1', tokens: 10, costUsd: 0.45, atMs: now })).toBe(true);
      expect(await b.recordSpend(keyId, { eventId: 'e1', tokens: 10, costUsd: 0.45, atMs: now })).toBe(false);
      await a.release(keyId, held.leaseId);
      expect(await b.admit(keyId, limits, lease(now, 0.5))).toEqual({ admitted: true });
      expect(await b.admit(keyId, limits, lease(now, 0.1))).toMatchObject({ admitted: false, limit: 'budget' });
      const usage = await a.usage(keyId, 'day', now);
      expect(usage).toMatchObject({ tokensThisMinute: 10, inFlight: 1 });
      expect(usage.spendThisPeriodUsd).toBeCloseTo(0.45, 9);
      expect(usage.reservedUsd).toBeCloseTo(0.5, 9);
      expect((await a.usage(keyId, 'month', now)).spendThisPeriodUsd).toBeCloseTo(0.45, 9);
      // The next day's budget is whole again.
      expect((await a.usage(keyId, 'day', now + 86_400_000)).spendThisPeriodUsd).toBe(0);
    });

    it('refuses once the minute has used tpm tokens', async () => {
      const [a, b] = fixture.replicas;
      expect(await a.admit(keyId, { tpm: 100 }, lease())).toEqual({ admitted: true });
      await a.recordSpend(keyId, { eventId: randomUUID(), tokens: 100, costUsd: 0, atMs: now });
      expect(await b.admit(keyId, { tpm: 100 }, lease())).toMatchObject({ admitted: false, limit: 'tpm' });
    });

    it("admits a key's end user under both holders' limits at once: a refusal by either takes nothing from the other", async () => {
      const [a, b] = fixture.replicas;
      const alice = { endUser: 'alice@example.com', limits: { rpm: 2, budget: { amountUsd: 1, period: 'day' as const } } };
      const bob = { ...alice, endUser: 'bob' };
      expect(await a.admit(keyId, { rpm: 4 }, lease(), alice)).toEqual({ admitted: true });
      expect(await b.admit(keyId, { rpm: 4 }, lease(), alice)).toEqual({ admitted: true });
      // Alice's own rpm refuses her third request; the key's minute does not count it.
      expect(await a.admit(keyId, { rpm: 4 }, lease(), alice)).toEqual({ admitted: false, limit: 'rpm', retryAfterS: 30, holder: 'end_user' });
      expect((await a.usage(keyId, 'day', now)).requestsThisMinute).toBe(2);
      expect((await a.usage(keyId, 'day', now, alice.endUser)).requestsThisMinute).toBe(2);
      // Bob has his own counters, but the key's rpm is shared: its refusal names the key.
      expect(await b.admit(keyId, { rpm: 4 }, lease(), bob)).toEqual({ admitted: true });
      expect(await a.admit(keyId, { rpm: 4 }, lease(), bob)).toEqual({ admitted: true });
      expect(await b.admit(keyId, { rpm: 4 }, lease(), bob)).toEqual({ admitted: false, limit: 'rpm', retryAfterS: 30, holder: 'key' });
      expect((await a.usage(keyId, 'day', now, bob.endUser)).requestsThisMinute).toBe(2);
    });

    it("holds an end user's budget reservation and spend apart from the key's, and releases both", async () => {
      const [a, b] = fixture.replicas;
      const alice = { endUser: 'alice', limits: { budget: { amountUsd: 1, period: 'day' as const } } };
      const held = lease(now, 0.6);
      expect(await a.admit(keyId, {}, held, alice)).toEqual({ admitted: true });
      expect(await b.admit(keyId, {}, lease(now, 0.5), alice)).toMatchObject({ admitted: false, limit: 'budget', holder: 'end_user' });
      // Another end user of the key has a whole budget of its own.
      const bobLease = lease(now, 0.5);
      expect(await b.admit(keyId, {}, bobLease, { ...alice, endUser: 'bob' })).toEqual({ admitted: true });
      expect((await a.usage(keyId, 'day', now)).reservedUsd).toBeCloseTo(1.1, 9);
      // Spend counts for the key and the end user, each once per event id.
      expect(await a.recordSpend(keyId, { eventId: 'u1', tokens: 10, costUsd: 0.3, atMs: now }, 'alice')).toBe(true);
      expect(await b.recordSpend(keyId, { eventId: 'u1', tokens: 10, costUsd: 0.3, atMs: now }, 'alice')).toBe(false);
      await a.release(keyId, held.leaseId, 'alice');
      const aliceUsage = await b.usage(keyId, 'day', now, 'alice');
      expect(aliceUsage).toMatchObject({ tokensThisMinute: 10, inFlight: 0, reservedUsd: 0 });
      expect(aliceUsage.spendThisPeriodUsd).toBeCloseTo(0.3, 9);
      expect((await b.usage(keyId, 'day', now)).spendThisPeriodUsd).toBeCloseTo(0.3, 9);
      expect((await b.usage(keyId, 'day', now, 'bob')).spendThisPeriodUsd).toBe(0);
      expect(await b.admit(keyId, {}, lease(now, 0.7), alice)).toEqual({ admitted: true });
      expect(await b.admit(keyId, {}, lease(now, 0.01), alice)).toMatchObject({ admitted: false, limit: 'budget', holder: 'end_user' });
    });

    it('keeps keys apart', async () => {
      const [a] = fixture.replicas;
      expect(await a.admit(keyId, { rpm: 1 }, lease())).toEqual({ admitted: true });
      expect(await a.admit(`${keyId}-other`, { rpm: 1 }, lease())).toEqual({ admitted: true });
      expect(await a.admit(keyId, { rpm: 1 }, lease())).toMatchObject({ admitted: false });
    });
  });
}
