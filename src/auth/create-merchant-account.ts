import { SwitchyardError } from '../errors/switchyard-error.js';
import { unattributedMerchant } from '../generation/publish-llm-calls.js';
import type { StateStore } from '../ports/state-store.js';
import { generateApiKey } from './api-key.js';

export interface CreateMerchantAccountDeps {
  readonly state: Pick<StateStore, 'merchants' | 'apiKeys'>;
  readonly now: () => number;
  /** Id of the default key; a random UUID unless a test pins it. */
  readonly newKeyId?: () => string;
}

export interface NewMerchantAccount {
  readonly merchantId: string;
  /** decision-engine's raw `gateway_success_rate_based_decider_input`, kept as sent. */
  readonly deciderInput: string | null;
}

/** The account created and its first key: the raw key exists only in this value. */
export interface CreatedMerchantAccount {
  readonly merchantId: string;
  readonly deciderInput: string | null;
  readonly rawApiKey: string;
}

/**
 * Creates a merchant account with a "Default API key", as decision-engine 1.4.x does (the admin
 * secret is checked by the caller). Throws `SY_REQUEST_INVALID` for the reserved merchant id under
 * which model calls made for no merchant are recorded (no credential may read them), and
 * `SY_MERCHANT_EXISTS` when the id is taken.
 *
 * @remarks The account and its key are two writes, not one transaction: a failure between them
 * leaves an account without a key, which a later /api-key/create can still give one.
 */
export async function createMerchantAccount(deps: CreateMerchantAccountDeps, account: NewMerchantAccount): Promise<CreatedMerchantAccount> {
  if (account.merchantId === unattributedMerchant) {
    throw new SwitchyardError('SY_REQUEST_INVALID', { message: `merchant_id ${unattributedMerchant} is reserved` });
  }
  const now = deps.now();
  const created = await deps.state.merchants.create({ merchantId: account.merchantId, merchantName: null, deciderInput: account.deciderInput, createdAt: now });
  if (created === 'exists') throw new SwitchyardError('SY_MERCHANT_EXISTS', { message: 'Merchant account already exists' });
  const key = generateApiKey();
  await deps.state.apiKeys.create({
    keyId: (deps.newKeyId ?? (() => crypto.randomUUID()))(),
    merchantId: account.merchantId,
    keyHash: key.hash,
    keyPrefix: key.prefix,
    description: 'Default API key',
    isActive: true,
    createdAt: now,
  });
  return { merchantId: account.merchantId, deciderInput: account.deciderInput, rawApiKey: key.raw };
}
