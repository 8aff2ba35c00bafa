import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { SrDimensionConfig } from '../../generated/schema-types.js';
import type { StateStore } from '../../ports/state-store.js';

/** The payment fields a success-rate window may be split by, besides the merchant's udfs. */
export const srDimensionFields = ['currency', 'country', 'auth_type', 'card_is_in', 'card_network'] as const;

/**
 * Stores the merchant's extra success-rate window dimensions, or throws `SY_SR_DIMENSION_INVALID`
 * naming the fields that are not dimensions. Like decision-engine, the merchant need not exist
 * yet: a config may precede its merchant.
 */
export async function writeSrDimension(state: Pick<StateStore, 'configs'>, merchantId: string, config: SrDimensionConfig): Promise<void> {
  const invalid = (config.fields ?? []).filter((field) => !(srDimensionFields as readonly string[]).includes(field));
  if (invalid.length > 0) {
    throw new SwitchyardError('SY_SR_DIMENSION_INVALID', {
      message: `Invalid dimensions: ${JSON.stringify(invalid)}. Valid dimensions are: ${srDimensionFields.join(', ')}`,
    });
  }
  await state.configs.put(merchantId, 'srDimension', config, 'upsert');
}
