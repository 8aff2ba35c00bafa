import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStateStore } from '../../../src/adapters/redis/redis-state-store.js';
import { SwitchyardError } from '../../../src/errors/switchyard-error.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { KeyLimits } from '../../../src/ports/state/key-policy.js';
import type { StateStore } from '../../../src/ports/state-store.js';
import { deleteClusterNamespace, startRedisCluster, type RedisClusterUnderTest } from '../../helpers/redis-cluster.js';

/**
 * Issue 27: a Redis Cluster master is SIGKILLed while budget admissions and spend, token and API-key
 * revocations and SR-window outcomes run against it; its replica takes over. Operations fail only as
 * SY_STATE_UNAVAILABLE (retryable) during the failover, and afterwards, with every failed operation
 * retried as a client would (same lease, event, token and dedupe ids): no spend is lost or counted
 * twice and the budget was never exceeded, every acknowledged revocation holds (also after the killed
 * node returns as a replica), and the window counts each outcome exactly once.
 */
const costUsd = 0.25;
const budgetUsd = 150; // 600 spends fit: the budget runs out after the failover, not before it
const limits: KeyLimits = { budget: { amountUsd: budgetUsd, period: 'day' } };
const bucketSize = 2000;

interface Load {
  admitted: number;
  refused: number;
  /** Spend event ids whose recordSpend answered (true or false). */
  readonly spendsAnswered: Set<string>;
  /** Spend event ids whose recordSpend failed: retried after the failover. */
  readonly spendsPending: Set<string>;
  readonly revokedTokens: Set<string>;
  readonly pendingTokens: Set<string>;
  readonly revokedKeys: Set<string>;
  readonly pendingKeys: Set<string>;
  readonly outcomes: Set<string>;
  readonly pendingOutcomes: Set<string>;
  readonly errorCodes: Map<string, number>;
}

function noteError(load: Load, error: unknown): void {
  const code = SwitchyardError.isInstance(error) ? error.code : `non-switchyard:${String(error)}`;
  load.errorCodes.set(code, (load.errorCodes.get(code) ?? 0) + 1);
}

describe('state store on a Redis Cluster losing a master under load', () => {
  let cluster: RedisClusterUnderTest;
  let store: StateStore;
  const keyPrefix = `syfault-${randomUUID().slice(0, 8)}:`;
  const usageKeyId = 'key-under-load';
  const apiKeyIds = Array.from({ length: 150 }, (_, i) => `ak-${i}`);
  /** Revoked right after the failover (the load's own revocations may have used up their pool by then). */
  const afterFailoverKeyIds = Array.from({ length: 5 }, (_, i) => `ak-after-${i}`);
  const windowKey = 'gw_sr_v3_score_fault_ORDER_PAYMENT_UPI_UPI_PAY_stripe';

  beforeAll(async () => {
    cluster = await startRedisCluster(17_300);
    store = await createRedisStateStore({ url: `redis://${cluster.nodes[0]}`, clusterNodes: cluster.nodes, keyPrefix, logger: silentLogger });
    for (const keyId of [...apiKeyIds, ...afterFailoverKeyIds]) {
      await store.apiKeys.create({
        keyId,
        merchantId: 'm-fault',
        keyHash: `${keyId}-hash`.padEnd(64, '0'),
        keyPrefix: 'DE_fault',
        description: null,
        isActive: true,
        createdAt: Date.now(),
      });
    }
  });

  afterAll(async () => {
    try {
      await store?.close();
      if (cluster !== undefined) await deleteClusterNamespace(cluster.admin, keyPrefix).catch(() => undefined);
    } finally {
      await cluster?.stop();
    }
  });

  async function spendOnce(load: Load, eventId: string): Promise<void> {
    try {
      await store.usage.recordSpend(usageKeyId, { eventId, tokens: 10, costUsd, atMs: Date.now() });
      load.spendsAnswered.add(eventId);
      load.spendsPending.delete(eventId);
    } catch (error) {
      noteError(load, error);
      load.spendsPending.add(eventId);
    }
  }

  /** One client: admit against the budget, record the spend, release; until `until` says stop. */
  async function budgetClient(load: Load, running: () => boolean): Promise<void> {
    while (running()) {
      const leaseId = randomUUID();
      let admitted = false;
      try {
        const admission = await store.usage.admit(usageKeyId, limits, { leaseId, reserveUsd: costUsd, nowMs: Date.now(), leaseTtlMs: 60_000 });
        admitted = admission.admitted;
      } catch (error) {
        noteError(load, error);
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      if (!admitted) {
        load.refused++;
        await new Promise((resolve) => setTimeout(resolve, 5));
        continue;
      }
      load.admitted++;
      // The request runs a moment before its spend is known.
      await new Promise((resolve) => setTimeout(resolve, 20));
      // The reservation is held until the spend is counted (retried with the same event id), as a
      // request does: released first, the budget would admit again what is about to be spent.
      await spendOnce(load, leaseId);
      while (load.spendsPending.has(leaseId)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await spendOnce(load, leaseId);
      }
      await store.usage.release(usageKeyId, leaseId).catch((error: unknown) => noteError(load, error));
    }
  }

  async function revocationClient(load: Load, running: () => boolean): Promise<void> {
    let i = 0;
    while (running()) {
      const tokenId = `jti-${i++}`;
      try {
        await store.sessions.revokeToken(tokenId, Date.now() + 600_000);
        load.revokedTokens.add(tokenId);
      } catch (error) {
        noteError(load, error);
        load.pendingTokens.add(tokenId);
      }
      const keyId = apiKeyIds[Math.floor(i / 8) % apiKeyIds.length]!;
      if (i % 8 === 0 && !load.revokedKeys.has(keyId)) {
        try {
          await store.apiKeys.revoke(keyId);
          load.revokedKeys.add(keyId);
          load.pendingKeys.delete(keyId);
        } catch (error) {
          noteError(load, error);
          load.pendingKeys.add(keyId);
        }
      }
    }
  }

  async function windowClient(load: Load, running: () => boolean): Promise<void> {
    let i = 0;
    while (running() && load.outcomes.size + load.pendingOutcomes.size < bucketSize - 50) {
      const dedupeKey = `outcome-${i++}`;
      try {
        await store.scores.recordOutcome({ windowKey, outcome: 0, bucketSize, dedupeKey, dedupeTtlSeconds: 3600, windowTtlSeconds: 3600 });
        load.outcomes.add(dedupeKey);
      } catch (error) {
        noteError(load, error);
        load.pendingOutcomes.add(dedupeKey);
      }
    }
  }

  it('fails over to the replica with no double spend, no resurrected revocation and consistent windows', async () => {
    const usageMaster = await cluster.masterIndexOf(`${keyPrefix}{usage:${usageKeyId}}spend`);
    const load: Load = {
      admitted: 0,
      refused: 0,
      spendsAnswered: new Set(),
      spendsPending: new Set(),
      revokedTokens: new Set(),
      pendingTokens: new Set(),
      revokedKeys: new Set(),
      pendingKeys: new Set(),
      outcomes: new Set(),
      pendingOutcomes: new Set(),
      errorCodes: new Map(),
    };
    let running = true;
    const clients = [
      ...Array.from({ length: 4 }, () => budgetClient(load, () => running)),
      revocationClient(load, () => running),
      windowClient(load, () => running),
    ];
    // Load runs before the kill, through the failover and after it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const beforeKill = load.spendsAnswered.size + load.revokedTokens.size + load.outcomes.size;
    await cluster.kill(usageMaster);
    await cluster.waitOk();
    const revokedBeforeFailover = load.revokedKeys.size;
    for (const keyId of afterFailoverKeyIds) {
      await store.apiKeys.revoke(keyId);
      load.revokedKeys.add(keyId);
    }
    // Then until the budget is spent (bounded).
    const deadline = Date.now() + 20_000;
    while (load.refused === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    running = false;
    await Promise.all(clients);
    expect(beforeKill).toBeGreaterThan(0);
    expect(load.revokedKeys.size).toBeGreaterThanOrEqual(revokedBeforeFailover + afterFailoverKeyIds.length);
    expect(await cluster.masterIndexOf(`${keyPrefix}{usage:${usageKeyId}}spend`)).not.toBe(usageMaster);

    // The kill hit the load (operations on the dead master failed), and only as the retryable kind.
    expect(load.errorCodes.get('SY_STATE_UNAVAILABLE') ?? 0).toBeGreaterThan(0);
    expect([...load.errorCodes.keys()].filter((code) => code !== 'SY_STATE_UNAVAILABLE')).toEqual([]);

    // Retry what failed, as a client or the spine's reconciliation would: the same ids.
    for (const eventId of [...load.spendsPending]) await spendOnce(load, eventId);
    for (const tokenId of load.pendingTokens) {
      await store.sessions.revokeToken(tokenId, Date.now() + 600_000);
      load.revokedTokens.add(tokenId);
    }
    for (const keyId of load.pendingKeys) {
      await store.apiKeys.revoke(keyId);
      load.revokedKeys.add(keyId);
    }
    for (const dedupeKey of load.pendingOutcomes) {
      await store.scores.recordOutcome({ windowKey, outcome: 0, bucketSize, dedupeKey, dedupeTtlSeconds: 3600, windowTtlSeconds: 3600 });
      load.outcomes.add(dedupeKey);
    }
    expect(load.spendsPending.size).toBe(0);

    async function assertConsistent(): Promise<void> {
      // Spend: each admitted request counted exactly once, never beyond the budget.
      const usage = await store.usage.usage(usageKeyId, 'day', Date.now());
      expect(load.spendsAnswered.size).toBeGreaterThan(0);
      expect(usage.spendThisPeriodUsd).toBeCloseTo(load.spendsAnswered.size * costUsd, 6);
      expect(usage.spendThisPeriodUsd).toBeLessThanOrEqual(budgetUsd + 1e-9);
      for (const eventId of load.spendsAnswered) {
        expect(await store.usage.recordSpend(usageKeyId, { eventId, tokens: 10, costUsd, atMs: Date.now() })).toBe(false);
      }
      // Revocations: none comes back.
      for (const tokenId of load.revokedTokens) expect(await store.sessions.isTokenRevoked(tokenId)).toBe(true);
      for (const keyId of load.revokedKeys) expect((await store.apiKeys.findById(keyId))?.isActive).toBe(false);
      // Window: every failure once, each retried outcome deduplicated.
      const [window] = await store.scores.readWindows([windowKey], bucketSize);
      expect(window).toEqual({ successes: bucketSize - load.outcomes.size, length: bucketSize });
    }

    await assertConsistent();
    expect(load.admitted).toBeGreaterThanOrEqual(load.spendsAnswered.size);
    expect(load.admitted).toBeLessThanOrEqual(budgetUsd / costUsd);
    // The spend that ran through the failover reached the budget: admission then refused.
    expect(load.refused).toBeGreaterThan(0);

    // The killed node returns as a replica of its successor: its stale copy resurrects nothing.
    await cluster.startNode(usageMaster);
    await assertConsistent();
  });
});
