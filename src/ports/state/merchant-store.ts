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
  /** Creates the account unless the id is taken. */
  create(account: MerchantAccount): Promise<'created' | 'exists'>;
  /** Removes the account; false when there was none. Configs stay (decision-engine compatibility). */
  delete(merchantId: string): Promise<boolean>;
}
