import type { ResponseStore, StoredResponse } from '../../ports/state-store.js';
import type { JournaledTables } from './journaled-tables.js';

/** The table of the embedded response store: journaled, so stored responses survive a restart as Redis keeps them. */
export const responseStoreTables = ['storedResponses'] as const;

/**
 * The embedded `ResponseStore`: one journaled entry per response (its JSON text, so no reader shares
 * an object with another), expiring at its TTL on the store's clock; expired entries are swept
 * with the other TTL'd tables.
 */
export function createMemoryResponseStore(db: JournaledTables): ResponseStore {
  const idOf = (merchantId: string, id: string) => `${merchantId}\u0000${id}`;
  return {
    async put(record, ttlS) {
      db.set('storedResponses', idOf(record.merchantId, record.id), JSON.stringify(record), ttlS * 1000);
    },
    async get(merchantId, id) {
      const json = db.get<string>('storedResponses', idOf(merchantId, id));
      return json === undefined ? undefined : (JSON.parse(json) as StoredResponse);
    },
    async delete(merchantId, id) {
      return db.delete('storedResponses', idOf(merchantId, id));
    },
  };
}
