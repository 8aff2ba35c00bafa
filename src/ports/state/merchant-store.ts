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
  /**
   * A number that changes whenever any answer of {@link held} may have changed, for a store whose
   * held answers change only by its own writes (the embedded store): a caller may keep what it built
   * from held answers while the version is the one it read. Absent (the caching decorator, whose
   * copies go stale on a timer): nothing built from held answers may be kept.
   */
  readonly heldVersion?: () => number;
  /** Creates the account unless the id is taken. */
  create(account: MerchantAccount): Promise<'created' | 'exists'>;
  /** Removes the account; false when there was none. Configs stay (decision-engine compatibility). */
  delete(merchantId: string): Promise<boolean>;
}
