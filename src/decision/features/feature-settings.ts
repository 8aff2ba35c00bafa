import { SwitchyardError } from '../../errors/switchyard-error.js';
import { merchantFeatures, type MerchantFeature } from '../../ports/state/merchant-features.js';
import type { StateStore } from '../../ports/state-store.js';
import { requireMerchant } from '../inputs/merchant-settings.js';
import { isMerchantFeature, listFeatures, readMerchantFeatures, setMerchantFeature } from './merchant-features.js';

type FeatureState = Pick<StateStore, 'merchants' | 'configs'>;

/** One flag as the feature-flag API lists it. */
export interface FeatureEntry {
  readonly feature: MerchantFeature;
  readonly enabled: boolean;
}

/**
 * Every known flag of an existing merchant with its effective state, in the listing order
 * (`SY_MERCHANT_NOT_FOUND` for an unknown merchant).
 */
export async function readFeatureList(state: FeatureState, merchantId: string): Promise<FeatureEntry[]> {
  await requireMerchant(state, merchantId);
  return listFeatures(await readMerchantFeatures(state.configs, merchantId));
}

/**
 * Sets one flag by its slug and answers the whole list re-read from the store, so the caller sees
 * the effective state of every flag after the change. An unknown slug is the caller's mistake
 * (`SY_REQUEST_INVALID`, naming the known ones); it is checked before the merchant, so nothing is
 * read for it.
 */
export async function toggleFeature(state: FeatureState, merchantId: string, slug: string, enabled: boolean): Promise<FeatureEntry[]> {
  if (!isMerchantFeature(slug)) {
    throw new SwitchyardError('SY_REQUEST_INVALID', {
      message: `Unknown feature '${slug}'; known features: ${merchantFeatures.join(', ')}`,
    });
  }
  await requireMerchant(state, merchantId);
  await setMerchantFeature(state.configs, merchantId, slug, enabled);
  return readFeatureList(state, merchantId);
}
