import type { NotHeld } from './held-read.js';

/** A merchant account (decision-engine `merchant_account`). */
export interface MerchantAccount {
  readonly merchantId: string;
  readonly merchantName: string | null;
  /** Raw legacy column echoed by GET /merchant-account; elimination config is kept separately. */
  readonly deciderInput: string | null;
  readonly createdAt: number;
}

/** Merchant accounts, by merchant id. */
export interface MerchantStore {
  get(merchantId: string): Promise<MerchantAccount | undefined>;
  /**
   * The same read, answered synchronously when the account is held in process memory (the embedded
   * store always; the caching decorator while its copy is fresh), else {@link notHeld}: the decision
   * path then loads its inputs without an await.
   */
  readonly held?: (merchantId: string) => MerchantAccount | undefined | NotHeld;
  /** Creates the account unless the id is taken. */
  create(account: MerchantAccount): Promise<'created' | 'exists'>;
  /** Removes the account; false when there was none. Configs stay (decision-engine compatibility). */
  delete(merchantId: string): Promise<boolean>;
}
