import type {
  ApiKeyRecord,
  ApiKeyStore,
  MerchantAccount,
  MerchantStore,
  Membership,
  SessionStore,
  UserRecord,
  UserStore,
} from '../../../src/ports/state-store.js';
import type { Clock } from '../../../src/time/clock.js';

/** Map-backed stand-ins for the auth ports, enough for unit tests of the domain (not adapters). */

export function createFakeUserStore(): UserStore {
  const byId = new Map<string, UserRecord>();
  const memberships = new Map<string, Membership[]>();
  return {
    async create(user) {
      if ([...byId.values()].some((existing) => existing.email === user.email)) return 'exists';
      byId.set(user.userId, user);
      return 'created';
    },
    async findByEmail(email) {
      return [...byId.values()].find((user) => user.email === email);
    },
    async findById(userId) {
      return byId.get(userId);
    },
    async setCurrentMerchant(userId, merchantId) {
      const user = byId.get(userId);
      if (user) byId.set(userId, { ...user, currentMerchantId: merchantId });
    },
    async addMembership(membership) {
      const list = memberships.get(membership.userId) ?? [];
      memberships.set(membership.userId, [...list.filter((m) => m.merchantId !== membership.merchantId), membership]);
    },
    async memberships(userId) {
      return memberships.get(userId) ?? [];
    },
  };
}

export function createFakeMerchantStore(): MerchantStore {
  const accounts = new Map<string, MerchantAccount>();
  return {
    async get(merchantId) {
      return accounts.get(merchantId);
    },
    async create(account) {
      if (accounts.has(account.merchantId)) return 'exists';
      accounts.set(account.merchantId, account);
      return 'created';
    },
    async delete(merchantId) {
      return accounts.delete(merchantId);
    },
  };
}

export function createFakeApiKeyStore(): ApiKeyStore {
  const byId = new Map<string, ApiKeyRecord>();
  return {
    async create(record) {
      byId.set(record.keyId, record);
    },
    async findByHash(keyHash) {
      return [...byId.values()].find((record) => record.keyHash === keyHash);
    },
    async findById(keyId) {
      return byId.get(keyId);
    },
    async listByMerchant(merchantId) {
      return [...byId.values()].filter((record) => record.merchantId === merchantId);
    },
    async setPolicy(keyId, policy) {
      const record = byId.get(keyId);
      if (record === undefined) return undefined;
      const updated = { ...record, policy };
      byId.set(keyId, updated);
      return updated;
    },
    async revoke(keyId) {
      const record = byId.get(keyId);
      if (record) byId.set(keyId, { ...record, isActive: false });
      return record;
    },
  };
}

/** Sliding windows and revocations that expire by the injected clock, as the real stores do. */
export function createFakeSessionStore(clock: Clock): SessionStore & { readonly revoked: Map<string, number> } {
  const revoked = new Map<string, number>();
  const failures = new Map<string, { windowMs: number; times: number[] }>();
  const live = (subject: string): number[] => {
    const entry = failures.get(subject);
    if (!entry) return [];
    entry.times = entry.times.filter((time) => time > clock.now() - entry.windowMs);
    return entry.times;
  };
  return {
    revoked,
    async revokeToken(tokenId, expiresAtMs) {
      revoked.set(tokenId, expiresAtMs);
    },
    async isTokenRevoked(tokenId) {
      const until = revoked.get(tokenId);
      return until !== undefined && until > clock.now();
    },
    async recordLoginFailure(subject, windowSeconds) {
      const times = live(subject);
      failures.set(subject, { windowMs: windowSeconds * 1000, times: [...times, clock.now()] });
      return times.length + 1;
    },
    async loginFailures(subject) {
      return live(subject).length;
    },
    async clearLoginFailures(subject) {
      failures.delete(subject);
    },
  };
}
