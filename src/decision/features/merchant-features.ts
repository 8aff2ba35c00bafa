import type { ConfigStore } from '../../ports/state/config-store.js';
import { type MerchantFeature, type MerchantFeatureFlags, merchantFeatures } from '../../ports/state/merchant-features.js';

export function isMerchantFeature(value: string): value is MerchantFeature {
  return (merchantFeatures as readonly string[]).includes(value);
}

/** Every known flag with its effective state, in the listing order. */
export function listFeatures(flags: MerchantFeatureFlags | undefined): { feature: MerchantFeature; enabled: boolean }[] {
  return merchantFeatures.map((feature) => ({ feature, enabled: flags?.[feature] === true }));
}

export function isFeatureEnabled(flags: MerchantFeatureFlags | undefined, feature: MerchantFeature): boolean {
  return flags?.[feature] === true;
}

/** Reads the merchant's flags (through the config cache on the hot path). */
export async function readMerchantFeatures(configs: Pick<ConfigStore, 'get'>, merchantId: string): Promise<MerchantFeatureFlags> {
  return (await configs.get(merchantId, 'features')) ?? {};
}

/**
 * Sets one flag, leaving the others as they are. Two concurrent toggles of different flags may
 * race (the document is written whole); toggles are rare operator actions, and the answer re-reads.
 */
export async function setMerchantFeature(
  configs: Pick<ConfigStore, 'get' | 'put'>,
  merchantId: string,
  feature: MerchantFeature,
  enabled: boolean,
): Promise<MerchantFeatureFlags> {
  const next = { ...(await readMerchantFeatures(configs, merchantId)), [feature]: enabled };
  await configs.put(merchantId, 'features', next, 'upsert');
  return next;
}
