import { upiPayment } from '../fixtures/payment-dimensions.js';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeyRecord, DecisionContext, MerchantAccount, RoutingAlgorithmRecord, StateStore, UserRecord } from '../../src/ports/state-store.js';

/** One StateStore under test, on a namespace of its own. */
export interface StateStoreFixture {
  readonly store: StateStore;
  /** The time the store's clock reads now (epoch ms), for expiries that must lie in the future. */
  now(): number;
  /**
   * Another instance on the same backend and namespace, as a second API replica holds. The embedded
   * store may return `store` itself (its replicas share one object).
   */
  openPeer(): Promise<StateStore>;
  /** Closes every instance it opened and removes the namespace. */
  dispose(): Promise<void>;
}

const bucketSize = 10;
const hour = 3600;

function unique(label: string): string {
  return `${label}-${randomUUID()}`;
}

function merchant(merchantId: string): MerchantAccount {
  return { merchantId, merchantName: 'Acme', deciderInput: null, createdAt: 1_700_000_000_000 };
}

function user(overrides: Partial<UserRecord> = {}): UserRecord {
  return {
    userId: unique('user'),
    email: `${unique('op')}@example.com`,
    passwordHash: '$2b$12$abcdefghijklmnopqrstuv',
    currentMerchantId: '',
    isActive: true,
    createdAt: 1_700_000_000_000,
    ...overrides,
  };
}

function apiKey(merchantId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const keyHash = randomUUID().replaceAll('-', '').repeat(2);
  return {
    keyId: unique('key'),
    merchantId,
    keyHash,
    keyPrefix: `DE_${keyHash.slice(0, 8)}`,
    description: null,
    isActive: true,
    createdAt: 1_700_000_000_000,
    ...overrides,
  };
}

function decisionContext(merchantId: string, paymentId: string, gatewayHint: string): DecisionContext {
  return {
    merchantId,
    paymentId,
    decidedAt: 1_700_000_000_000,
    decisionEventId: randomUUID(),
    windowDimension: `gw_sr_v3_score_${merchantId}_ORDER_PAYMENT_UPI_UPI_PAY`,
    eliminationDimension: `gw_score_${merchantId}_ORDER_PAYMENT`,
    eliminationEnabled: true,
    routingApproach: gatewayHint,
    orderType: 'ORDER_PAYMENT',
    payment: { ...upiPayment, amount: 100.5 },
  };
}

function routingAlgorithm(createdBy: string, overrides: Partial<RoutingAlgorithmRecord> = {}): RoutingAlgorithmRecord {
  return {
    id: unique('routing'),
    createdBy,
    name: 'rule',
    description: '',
    algorithmFor: 'payment',
    algorithm: { type: 'priority', data: [{ gateway_name: 'stripe', gateway_id: null }] },
    metadata: { team: 'payments' },
    createdAt: 1_700_000_000_000,
    modifiedAt: 1_700_000_000_000,
    ...overrides,
  };
}

/**
 * The StateStore contract, run against every adapter (memory and Redis). It relies only on the port
 * in src/ports/state-store.ts; expiry is not exercised here because it would need waiting on real
 * time for Redis (adapter tests check the TTLs they set instead).
 */
export function stateStoreSuite(adapterName: string, open: () => Promise<StateStoreFixture>): void {
  describe(`StateStore contract (${adapterName})`, () => {
    let fixture: StateStoreFixture;
    let store: StateStore;

    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
    });

    afterEach(async () => {
      await fixture.dispose();
    });

    describe('merchants', () => {
      it('creates a merchant once and reports exists for a taken id', async () => {
        const id = unique('m');
        expect(await store.merchants.create(merchant(id))).toBe('created');
        expect(await store.merchants.create({ ...merchant(id), merchantName: 'Other' })).toBe('exists');
        expect(await store.merchants.get(id)).toEqual(merchant(id));
      });

      it('returns undefined when the merchant does not exist', async () => {
        expect(await store.merchants.get(unique('m'))).toBeUndefined();
      });

      it('deletes a merchant and reports false when there was none', async () => {
        const id = unique('m');
        await store.merchants.create(merchant(id));
        expect(await store.merchants.delete(id)).toBe(true);
        expect(await store.merchants.get(id)).toBeUndefined();
        expect(await store.merchants.delete(id)).toBe(false);
      });
    });

    describe('configs', () => {
      it('creates a config only when it is absent', async () => {
        const id = unique('m');
        expect(await store.configs.put(id, 'elimination', { threshold: 0.35 }, 'create')).toBe('written');
        expect(await store.configs.put(id, 'elimination', { threshold: 0.5 }, 'create')).toBe('exists');
        expect(await store.configs.get(id, 'elimination')).toEqual({ threshold: 0.35 });
      });

      it('updates a config only when it is present', async () => {
        const id = unique('m');
        expect(await store.configs.put(id, 'successRate', { defaultBucketSize: 20 }, 'update')).toBe('missing');
        expect(await store.configs.get(id, 'successRate')).toBeUndefined();
        await store.configs.put(id, 'successRate', { defaultBucketSize: 20 }, 'create');
        expect(await store.configs.put(id, 'successRate', { defaultBucketSize: 30 }, 'update')).toBe('written');
        expect(await store.configs.get(id, 'successRate')).toEqual({ defaultBucketSize: 30 });
      });

      it('upserts a config whether or not it exists', async () => {
        const id = unique('m');
        expect(await store.configs.put(id, 'srDimension', { udfs: [1] }, 'upsert')).toBe('written');
        expect(await store.configs.put(id, 'srDimension', { udfs: [2], fields: ['currency'] }, 'upsert')).toBe('written');
        expect(await store.configs.get(id, 'srDimension')).toEqual({ udfs: [2], fields: ['currency'] });
      });

      it('keeps a false boolean config distinct from a missing one', async () => {
        const id = unique('m');
        expect(await store.configs.get(id, 'debitRoutingEnabled')).toBeUndefined();
        await store.configs.put(id, 'debitRoutingEnabled', false, 'upsert');
        expect(await store.configs.get(id, 'debitRoutingEnabled')).toBe(false);
      });

      it('keeps configs apart per merchant and name and deletes one', async () => {
        const first = unique('m');
        const second = unique('m');
        await store.configs.put(first, 'elimination', { threshold: 0.1 }, 'create');
        await store.configs.put(first, 'debitRouting', { merchant_category_code: '5411', acquirer_country: 'US' }, 'create');
        await store.configs.put(second, 'elimination', { threshold: 0.2 }, 'create');
        expect(await store.configs.delete(first, 'elimination')).toBe(true);
        expect(await store.configs.delete(first, 'elimination')).toBe(false);
        expect(await store.configs.get(first, 'elimination')).toBeUndefined();
        expect(await store.configs.get(first, 'debitRouting')).toEqual({ merchant_category_code: '5411', acquirer_country: 'US' });
        expect(await store.configs.get(second, 'elimination')).toEqual({ threshold: 0.2 });
      });
    });

    describe('success-rate windows', () => {
      const record = (windowKey: string, outcome: 0 | 1, dedupeKey = randomUUID()) =>
        store.scores.recordOutcome({
          windowKey,
          outcome,
          bucketSize,
          dedupeKey,
          dedupeTtlSeconds: hour,
          windowTtlSeconds: 10_000_000,
        });

      it('reads undefined for a window without history', async () => {
        expect(await store.scores.readWindows([unique('gw_sr_v3_score')], bucketSize)).toEqual([undefined]);
      });

      it('seeds a new window with bucketSize successes when the first outcome is a failure', async () => {
        const key = unique('gw_sr_v3_score');
        const result = await record(key, 0);
        expect(result).toEqual({ applied: true, window: { successes: 9, length: 10 } });
        expect(await store.scores.readWindows([key], bucketSize)).toEqual([{ successes: 9, length: 10 }]);
      });

      it('keeps only the newest bucketSize outcomes when more arrive', async () => {
        const key = unique('gw_sr_v3_score');
        for (let i = 0; i < 12; i++) await record(key, 0);
        expect(await store.scores.readWindows([key], bucketSize)).toEqual([{ successes: 0, length: 10 }]);
        const result = await record(key, 1);
        expect(result.window).toEqual({ successes: 1, length: 10 });
      });

      it('ignores a second outcome with the same dedupe key', async () => {
        const key = unique('gw_sr_v3_score');
        const dedupeKey = randomUUID();
        await record(key, 0, dedupeKey);
        const again = await record(key, 0, dedupeKey);
        expect(again).toEqual({ applied: false, window: { successes: 9, length: 10 } });
        expect(await store.scores.readWindows([key], bucketSize)).toEqual([{ successes: 9, length: 10 }]);
      });

      it('reads many windows in key order and only the newest entries of a smaller bucket', async () => {
        const failing = unique('gw_sr_v3_score');
        const fresh = unique('gw_sr_v3_score');
        const missing = unique('gw_sr_v3_score');
        for (let i = 0; i < 3; i++) await record(failing, 0);
        await record(fresh, 1);
        expect(await store.scores.readWindows([failing, missing, fresh], bucketSize)).toEqual([
          { successes: 7, length: 10 },
          undefined,
          { successes: 10, length: 10 },
        ]);
        expect(await store.scores.readWindows([failing], 4)).toEqual([{ successes: 1, length: 4 }]);
      });

      it('returns an empty list when no window keys are asked for', async () => {
        expect(await store.scores.readWindows([], bucketSize)).toEqual([]);
      });
    });

    describe('elimination scores', () => {
      const apply = (key: string, factor: number, countsTransaction: boolean, dedupeKey = randomUUID()) =>
        store.scores.applyElimination({
          key,
          factor,
          countsTransaction,
          nowMs: 1_700_000_000_000,
          ttlMs: 9_000_000,
          dedupeKey,
          dedupeTtlSeconds: hour,
        });

      it('starts an absent score at 1 and multiplies it by the factor', async () => {
        const key = unique('gw_score');
        const first = await apply(key, 0.95, true);
        expect(first.applied).toBe(true);
        expect(first.score.score).toBeCloseTo(0.95, 12);
        expect(first.score.transactionCount).toBe(1);
        expect(first.score.updatedAt).toBe(1_700_000_000_000);
        const second = await apply(key, 0.95, false);
        expect(second.score.score).toBeCloseTo(0.9025, 12);
        expect(second.score.transactionCount).toBe(1);
      });

      it('clamps the score to 1 when a reward would exceed it', async () => {
        const key = unique('gw_score');
        const result = await apply(key, 1.0526, false);
        expect(result.score.score).toBe(1);
      });

      it('clamps the score to 0 when the factor would drive it negative', async () => {
        const key = unique('gw_score');
        const result = await apply(key, -2, true);
        expect(result.score.score).toBe(0);
      });

      it('ignores a second update with the same dedupe key', async () => {
        const key = unique('gw_score');
        const dedupeKey = randomUUID();
        await apply(key, 0.5, true, dedupeKey);
        const again = await apply(key, 0.5, true, dedupeKey);
        expect(again.applied).toBe(false);
        expect(again.score.score).toBeCloseTo(0.5, 12);
        expect(again.score.transactionCount).toBe(1);
      });

      it('reads eliminations in key order with undefined for absent keys', async () => {
        const key = unique('gw_score');
        await apply(key, 0.8, true);
        const [absent, present] = await store.scores.readEliminations([unique('gw_score'), key]);
        expect(absent).toBeUndefined();
        expect(present?.score).toBeCloseTo(0.8, 12);
        expect(present?.transactionCount).toBe(1);
        expect(await store.scores.readEliminations([])).toEqual([]);
      });
    });

    describe('decision contexts', () => {
      it('stores a decision context and overwrites it on the next decision', async () => {
        const merchantId = unique('m');
        const paymentId = unique('pay');
        const original = decisionContext(merchantId, paymentId, 'SR_SELECTION_V3_ROUTING');
        await store.scores.putDecisionContext(original, 1800);
        expect(await store.scores.getDecisionContext(merchantId, paymentId)).toEqual(original);
        const replacement = decisionContext(merchantId, paymentId, 'PRIORITY_LOGIC');
        await store.scores.putDecisionContext(replacement, 1800);
        expect(await store.scores.getDecisionContext(merchantId, paymentId)).toEqual(replacement);
      });

      it('keeps the same payment id apart per merchant', async () => {
        const paymentId = unique('pay');
        const first = unique('m');
        await store.scores.putDecisionContext(decisionContext(first, paymentId, 'DEFAULT'), 1800);
        expect(await store.scores.getDecisionContext(unique('m'), paymentId)).toBeUndefined();
        expect(await store.scores.getDecisionContext(first, unique('pay'))).toBeUndefined();
      });
    });

    describe('users', () => {
      it('creates a user and finds it by email and by id', async () => {
        const created = user();
        expect(await store.users.create(created)).toBe('created');
        expect(await store.users.findByEmail(created.email)).toEqual(created);
        expect(await store.users.findById(created.userId)).toEqual(created);
      });

      it('refuses a second user with a taken email', async () => {
        const first = user();
        await store.users.create(first);
        const second = user({ email: first.email });
        expect(await store.users.create(second)).toBe('exists');
        expect(await store.users.findByEmail(first.email)).toEqual(first);
        expect(await store.users.findById(second.userId)).toBeUndefined();
      });

      it('compares emails verbatim when they differ only in case', async () => {
        const lower = user({ email: `${unique('case')}@example.com` });
        const upper = user({ email: lower.email.toUpperCase() });
        expect(await store.users.create(lower)).toBe('created');
        expect(await store.users.create(upper)).toBe('created');
      });

      it('returns undefined for an unknown email or id', async () => {
        expect(await store.users.findByEmail(`${unique('nobody')}@example.com`)).toBeUndefined();
        expect(await store.users.findById(unique('user'))).toBeUndefined();
      });

      it('switches the current merchant of a user', async () => {
        const created = user();
        await store.users.create(created);
        await store.users.setCurrentMerchant(created.userId, 'm-next');
        expect(await store.users.findById(created.userId)).toEqual({ ...created, currentMerchantId: 'm-next' });
      });

      it('adds memberships and replaces the role when the merchant is added again', async () => {
        const userId = unique('user');
        await store.users.addMembership({ userId, merchantId: 'm-a', role: 'admin' });
        await store.users.addMembership({ userId, merchantId: 'm-b', role: 'member' });
        await store.users.addMembership({ userId, merchantId: 'm-b', role: 'admin' });
        const memberships = [...(await store.users.memberships(userId))].sort((a, b) => a.merchantId.localeCompare(b.merchantId));
        expect(memberships).toEqual([
          { userId, merchantId: 'm-a', role: 'admin' },
          { userId, merchantId: 'm-b', role: 'admin' },
        ]);
        expect(await store.users.memberships(unique('user'))).toEqual([]);
      });

      it("lists a merchant's members with their roles, from both sides of the membership", async () => {
        const merchantId = unique('m');
        const [admin, member, other] = [unique('user'), unique('user'), unique('user')];
        await store.users.addMembership({ userId: admin, merchantId, role: 'admin' });
        await store.users.addMembership({ userId: member, merchantId, role: 'member' });
        await store.users.addMembership({ userId: other, merchantId: unique('m'), role: 'admin' });
        const members = [...(await store.users.membersOf(merchantId))].sort((a, b) => a.userId.localeCompare(b.userId));
        expect(members).toEqual(
          [
            { userId: admin, merchantId, role: 'admin' },
            { userId: member, merchantId, role: 'member' },
          ].sort((a, b) => a.userId.localeCompare(b.userId)),
        );
        expect(await store.users.roleIn(member, merchantId)).toBe('member');
        expect(await store.users.roleIn(other, merchantId)).toBeUndefined();
        expect(await store.users.membersOf(unique('m'))).toEqual([]);
      });

      it('adds a membership only when absent, whatever the role held, and once among concurrent adds', async () => {
        const merchantId = unique('m');
        const userId = unique('user');
        expect(await store.users.addMembershipIfAbsent({ userId, merchantId, role: 'member' })).toBe('added');
        expect(await store.users.addMembershipIfAbsent({ userId, merchantId, role: 'admin' })).toBe('exists');
        expect(await store.users.roleIn(userId, merchantId)).toBe('member');
        const racer = unique('user');
        const outcomes = await Promise.all(
          Array.from({ length: 5 }, (_, index) => store.users.addMembershipIfAbsent({ userId: racer, merchantId, role: index === 0 ? 'admin' : 'member' })),
        );
        expect(outcomes.filter((outcome) => outcome === 'added')).toHaveLength(1);
        expect((await store.users.membersOf(merchantId)).filter((m) => m.userId === racer)).toHaveLength(1);
        expect(await store.users.memberships(racer)).toHaveLength(1);
      });

      it('removes a membership from both sides, and answers false when there is none', async () => {
        const merchantId = unique('m');
        const kept = unique('m');
        const userId = unique('user');
        await store.users.addMembership({ userId, merchantId, role: 'member' });
        await store.users.addMembership({ userId, merchantId: kept, role: 'admin' });
        expect(await store.users.removeMembership(userId, merchantId)).toBe(true);
        expect(await store.users.removeMembership(userId, merchantId)).toBe(false);
        expect(await store.users.membersOf(merchantId)).toEqual([]);
        expect(await store.users.roleIn(userId, merchantId)).toBeUndefined();
        expect(await store.users.memberships(userId)).toEqual([{ userId, merchantId: kept, role: 'admin' }]);
        expect(await store.users.membersOf(kept)).toEqual([{ userId, merchantId: kept, role: 'admin' }]);
      });
    });

    describe('api keys', () => {
      it('creates an api key and finds it by hash and by id', async () => {
        const record = apiKey(unique('m'));
        await store.apiKeys.create(record);
        expect(await store.apiKeys.findByHash(record.keyHash)).toEqual(record);
        expect(await store.apiKeys.findById(record.keyId)).toEqual(record);
        expect(await store.apiKeys.findByHash('0'.repeat(64))).toBeUndefined();
      });

      it("lists a merchant's keys, active and revoked, oldest first", async () => {
        const merchantId = unique('m');
        const older = apiKey(merchantId, { description: 'ci key', createdAt: 1_700_000_000_000 });
        const newer = apiKey(merchantId, { createdAt: 1_700_000_001_000 });
        await store.apiKeys.create(newer);
        await store.apiKeys.create(older);
        await store.apiKeys.create(apiKey(unique('m')));
        await store.apiKeys.revoke(newer.keyId);
        expect(await store.apiKeys.listByMerchant(merchantId)).toEqual([older, { ...newer, isActive: false }]);
        expect(await store.apiKeys.listByMerchant(unique('m'))).toEqual([]);
      });

      it('revokes a key, returning it as it was, and keeps it findable as inactive', async () => {
        const record = apiKey(unique('m'), { description: 'Default API key' });
        await store.apiKeys.create(record);
        expect(await store.apiKeys.revoke(record.keyId)).toEqual(record);
        expect(await store.apiKeys.findById(record.keyId)).toEqual({ ...record, isActive: false });
        expect(await store.apiKeys.findByHash(record.keyHash)).toEqual({ ...record, isActive: false });
        expect(await store.apiKeys.revoke(record.keyId)).toEqual({ ...record, isActive: false });
      });

      it('returns undefined when revoking an unknown key', async () => {
        expect(await store.apiKeys.revoke(unique('key'))).toBeUndefined();
      });
    });

    describe('sessions', () => {
      it('denies a revoked token id and no other', async () => {
        const tokenId = randomUUID();
        expect(await store.sessions.isTokenRevoked(tokenId)).toBe(false);
        await store.sessions.revokeToken(tokenId, fixture.now() + 60_000);
        expect(await store.sessions.isTokenRevoked(tokenId)).toBe(true);
        expect(await store.sessions.isTokenRevoked(randomUUID())).toBe(false);
      });

      it('counts login failures per subject and clears them', async () => {
        const subject = unique('login');
        const other = unique('login');
        expect(await store.sessions.loginFailures(subject)).toBe(0);
        expect(await store.sessions.recordLoginFailure(subject, 900)).toBe(1);
        expect(await store.sessions.recordLoginFailure(subject, 900)).toBe(2);
        expect(await store.sessions.recordLoginFailure(other, 900)).toBe(1);
        expect(await store.sessions.loginFailures(subject)).toBe(2);
        await store.sessions.clearLoginFailures(subject);
        expect(await store.sessions.loginFailures(subject)).toBe(0);
        expect(await store.sessions.loginFailures(other)).toBe(1);
      });
    });

    describe('routing rules', () => {
      it('creates, reads and lists algorithms per merchant, refusing a taken id', async () => {
        const owner = unique('m');
        const first = routingAlgorithm(owner, { createdAt: 1_700_000_000_000 });
        const second = routingAlgorithm(owner, { createdAt: 1_700_000_000_500, algorithmFor: 'payout' });
        const foreign = routingAlgorithm(unique('m'));
        for (const record of [second, first, foreign]) expect(await store.routingRules.create(record)).toBe('created');
        expect(await store.routingRules.create({ ...first, name: 'again' })).toBe('exists');
        expect(await store.routingRules.get(first.id)).toEqual(first);
        expect(await store.routingRules.get(unique('routing'))).toBeUndefined();
        expect(await store.routingRules.list(owner)).toEqual([first, second]);
        expect(await store.routingRules.list(unique('m'))).toEqual([]);
      });

      it('keeps one active algorithm per (merchant, algorithm_for); activating replaces', async () => {
        const owner = unique('m');
        const [a, b, payout] = [routingAlgorithm(owner), routingAlgorithm(owner), routingAlgorithm(owner, { algorithmFor: 'payout' })];
        for (const record of [a, b, payout]) await store.routingRules.create(record);
        expect(await store.routingRules.loadActive(owner)).toEqual([]);
        await store.routingRules.activate(owner, 'payment', a.id);
        await store.routingRules.activate(owner, 'payout', payout.id);
        expect(await store.routingRules.activeIds(owner)).toEqual({ payment: a.id, payout: payout.id });
        await store.routingRules.activate(owner, 'payment', b.id);
        expect(await store.routingRules.activeIds(owner)).toEqual({ payment: b.id, payout: payout.id });
        // payment first, whatever order they were activated in
        expect((await store.routingRules.loadActive(owner)).map((record) => record.id)).toEqual([b.id, payout.id]);
      });

      it('keeps the experiment slot beside the rule slot: independent activations, rule first, both refused for edits', async () => {
        const owner = unique('m');
        const [rule, experiment] = [routingAlgorithm(owner), routingAlgorithm(owner)];
        for (const record of [rule, experiment]) await store.routingRules.create(record);
        await store.routingRules.activate(owner, 'payment_experiment', experiment.id);
        await store.routingRules.activate(owner, 'payment', rule.id);
        expect(await store.routingRules.activeIds(owner)).toEqual({ payment: rule.id, payment_experiment: experiment.id });
        expect((await store.routingRules.loadActive(owner)).map((record) => record.id)).toEqual([rule.id, experiment.id]);
        expect(await store.routingRules.update({ ...experiment, name: 'renamed' })).toBe('active');
        expect(await store.routingRules.deactivate(owner, 'payment', experiment.id)).toBe(false);
        expect(await store.routingRules.deactivate(owner, 'payment_experiment', experiment.id)).toBe(true);
        expect(await store.routingRules.activeIds(owner)).toEqual({ payment: rule.id });
      });

      it('deactivates only the named algorithm and is idempotent', async () => {
        const owner = unique('m');
        const [a, b] = [routingAlgorithm(owner), routingAlgorithm(owner)];
        for (const record of [a, b]) await store.routingRules.create(record);
        await store.routingRules.activate(owner, 'payment', a.id);
        expect(await store.routingRules.deactivate(owner, 'payment', b.id)).toBe(false);
        expect(await store.routingRules.activeIds(owner)).toEqual({ payment: a.id });
        expect(await store.routingRules.deactivate(owner, 'payment', a.id)).toBe(true);
        expect(await store.routingRules.deactivate(owner, 'payment', a.id)).toBe(false);
        expect(await store.routingRules.activeIds(owner)).toEqual({});
        expect(await store.routingRules.loadActive(owner)).toEqual([]);
      });

      it('refuses to update or delete an active algorithm, and a missing or foreign one', async () => {
        const owner = unique('m');
        const record = routingAlgorithm(owner);
        await store.routingRules.create(record);
        await store.routingRules.activate(owner, 'payment', record.id);
        const renamed = { ...record, name: 'renamed', modifiedAt: record.modifiedAt + 1 };
        expect(await store.routingRules.update(renamed)).toBe('active');
        expect(await store.routingRules.delete(owner, record.id)).toBe('active');
        expect(await store.routingRules.update({ ...renamed, createdBy: unique('m') })).toBe('missing');
        expect(await store.routingRules.update({ ...renamed, id: unique('routing') })).toBe('missing');
        expect(await store.routingRules.delete(unique('m'), record.id)).toBe('missing');
        await store.routingRules.deactivate(owner, 'payment', record.id);
        expect(await store.routingRules.update(renamed)).toBe('updated');
        expect(await store.routingRules.get(record.id)).toEqual(renamed);
        expect(await store.routingRules.delete(owner, record.id)).toBe('deleted');
        expect(await store.routingRules.delete(owner, record.id)).toBe('missing');
        expect(await store.routingRules.get(record.id)).toBeUndefined();
        expect(await store.routingRules.list(owner)).toEqual([]);
      });

      it('shows an activation made on another instance', async () => {
        const peer = await fixture.openPeer();
        const owner = unique('m');
        const record = routingAlgorithm(owner);
        await store.routingRules.create(record);
        await peer.routingRules.activate(owner, 'payment', record.id);
        expect((await store.routingRules.loadActive(owner)).map((entry) => entry.id)).toEqual([record.id]);
      });
    });

    describe('cache invalidation', () => {
      it('delivers a key published by another instance on the same backend', async () => {
        const peer = await fixture.openPeer();
        const key = unique('merchant_acct');
        const received = new Promise<string>((resolve) => {
          store.onInvalidation((invalidated) => {
            if (invalidated === key) resolve(invalidated);
          });
        });
        await peer.publishInvalidation(key);
        expect(await received).toBe(key);
      });

      it('stops calling a listener once it is removed', async () => {
        const removedCalls: string[] = [];
        const remove = store.onInvalidation((key) => removedCalls.push(key));
        remove();
        const key = unique('merchant_acct');
        const received = new Promise<string>((resolve) => {
          store.onInvalidation((invalidated) => {
            if (invalidated === key) resolve(invalidated);
          });
        });
        await store.publishInvalidation(key);
        await received;
        expect(removedCalls).toEqual([]);
      });
    });

    describe('health', () => {
      it('passes the write, read and delete probe when the backend answers', async () => {
        expect(await store.probe()).toEqual({ ok: true });
        expect(store.isAvailable()).toBe(true);
      });
    });
  });
}
