import type { CredentialStore, SessionCutoff } from '../../ports/state/credential-store.js';
import type { UserRecord } from '../../ports/state/user-store.js';
import type { JournaledTables } from './journaled-tables.js';

/** Durable tables of the credential store (the users table is the state store's own). */
export const credentialTables = ['emailVerified', 'oneTimeTokens', 'sessionCutoffs'];

/**
 * The embedded credential store: every method reads and writes without an await in between, so
 * consuming a one-time token is atomic in one process.
 */
export function createMemoryCredentialStore(db: JournaledTables, now: () => number): CredentialStore {
  return {
    async setPasswordHash(userId, passwordHash) {
      const user = db.get<UserRecord>('users', userId);
      if (user === undefined) return false;
      db.set('users', userId, { ...user, passwordHash });
      return true;
    },
    async markEmailVerified(userId) {
      db.set('emailVerified', userId, true);
    },
    async isEmailVerified(userId) {
      return db.get<boolean>('emailVerified', userId) === true;
    },
    async saveOneTimeToken(purpose, tokenHash, userId, expiresAtMs) {
      db.set('oneTimeTokens', `${purpose}:${tokenHash}`, userId, Math.max(1, expiresAtMs - now()));
    },
    async consumeOneTimeToken(purpose, tokenHash) {
      const key = `${purpose}:${tokenHash}`;
      const userId = db.get<string>('oneTimeTokens', key);
      if (userId !== undefined) db.delete('oneTimeTokens', key);
      return userId;
    },
    async setSessionCutoff(userId, cutoff, ttlMs) {
      db.set('sessionCutoffs', userId, cutoff, Math.max(1000, ttlMs));
    },
    async sessionCutoff(userId) {
      return db.get<SessionCutoff>('sessionCutoffs', userId);
    },
  };
}
