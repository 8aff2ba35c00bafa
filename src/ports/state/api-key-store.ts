import type { KeyPolicy } from './key-policy.js';

export interface ApiKeyRecord {
  readonly keyId: string;
  readonly merchantId: string;
  /** SHA-256 hex of the raw key; the raw key is never stored. */
  readonly keyHash: string;
  readonly keyPrefix: string;
  readonly description: string | null;
  readonly isActive: boolean;
  readonly createdAt: number;
  /** The key's own limits and cache setting; absent: the merchant's defaults apply. */
  readonly policy?: KeyPolicy;
}

/** API keys by hash (what authentication looks up), by id and by merchant. */
export interface ApiKeyStore {
  create(record: ApiKeyRecord): Promise<void>;
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  findById(keyId: string): Promise<ApiKeyRecord | undefined>;
  listByMerchant(merchantId: string): Promise<readonly ApiKeyRecord[]>;
  /** Marks the key inactive; returns the record as it was, or undefined when unknown. */
  revoke(keyId: string): Promise<ApiKeyRecord | undefined>;
  /** Replaces the key's limits and cache setting; the updated record, or undefined when unknown. */
  setPolicy(keyId: string, policy: KeyPolicy): Promise<ApiKeyRecord | undefined>;
}
