import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { StateStore } from '../../ports/state-store.js';
import { legacyDeciderInput } from './legacy-decider-input.js';

type MerchantState = Pick<StateStore, 'merchants' | 'configs'>;

/** decision-engine's 404 for a merchant id it does not know. */
export const merchantNotFound = () => new SwitchyardError('SY_MERCHANT_NOT_FOUND', { message: 'MerchantId not found' });

/** Throws `SY_MERCHANT_NOT_FOUND` unless the merchant account exists. */
export async function requireMerchant(state: Pick<StateStore, 'merchants'>, merchantId: string): Promise<void> {
  if ((await state.merchants.get(merchantId)) === undefined) throw merchantNotFound();
}

/**
 * The legacy decider input echoed by GET /merchant-account: derived from the elimination config
 * when one is stored (so the two never disagree), else the raw text given at creation.
 */
export async function readDeciderInput(state: MerchantState, merchantId: string): Promise<string> {
  const merchant = await state.merchants.get(merchantId);
  if (merchant === undefined) throw merchantNotFound();
  const elimination = await state.configs.get(merchantId, 'elimination');
  return elimination === undefined ? (merchant.deciderInput ?? '') : legacyDeciderInput(elimination);
}

/** Whether network (debit) routing is on for an existing merchant (off unless set). */
export async function readDebitRouting(state: MerchantState, merchantId: string): Promise<boolean> {
  await requireMerchant(state, merchantId);
  return (await state.configs.get(merchantId, 'debitRoutingEnabled')) === true;
}

/** Turns network (debit) routing on or off for an existing merchant. */
export async function writeDebitRouting(state: MerchantState, merchantId: string, enabled: boolean): Promise<void> {
  await requireMerchant(state, merchantId);
  await state.configs.put(merchantId, 'debitRoutingEnabled', enabled, 'upsert');
}
