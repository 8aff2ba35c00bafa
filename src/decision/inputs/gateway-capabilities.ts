import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { GatewayCapability } from '../../generated/schema-types.js';
import type { StateStore } from '../../ports/state-store.js';
import { merchantNotFound } from './merchant-settings.js';

type CapabilityState = Pick<StateStore, 'merchants' | 'configs'>;

/** A merchant configures at most this many gateways (the legacy filter chain walks them all). */
export const maxGatewaysPerMerchant = 256;

/*
 * The merchant's gateway capabilities (decision-engine's merchant_gateway_account rows), read by
 * the legacy POST /decision_gateway filter chain. One config document per merchant, rewritten on
 * each change: two concurrent upserts of different gateways of one merchant can lose one of them
 * (last write wins).
 */

/** The merchant's configured gateways ([] when none); `SY_MERCHANT_NOT_FOUND` for an unknown merchant. */
export async function gatewayCapabilitiesOf(state: CapabilityState, merchantId: string): Promise<readonly GatewayCapability[]> {
  const [merchant, configured] = await Promise.all([state.merchants.get(merchantId), state.configs.get(merchantId, 'gatewayCapabilities')]);
  if (merchant === undefined) throw merchantNotFound();
  return configured ?? [];
}

/**
 * Adds or replaces one gateway's capabilities; `SY_REQUEST_INVALID` when a new gateway would pass
 * `maxGatewaysPerMerchant`. Returns the gateways now configured and whether one was replaced.
 */
export async function upsertGatewayCapability(
  state: CapabilityState,
  merchantId: string,
  capability: GatewayCapability,
): Promise<{ readonly gateways: readonly GatewayCapability[]; readonly replaced: boolean }> {
  const configured = await gatewayCapabilitiesOf(state, merchantId);
  const index = configured.findIndex((gateway) => gateway.gateway === capability.gateway);
  if (index === -1 && configured.length >= maxGatewaysPerMerchant) {
    throw new SwitchyardError('SY_REQUEST_INVALID', { message: `A merchant configures at most ${maxGatewaysPerMerchant} gateways` });
  }
  const next = index === -1 ? [...configured, capability] : configured.map((gateway, at) => (at === index ? capability : gateway));
  await state.configs.put(merchantId, 'gatewayCapabilities', next, 'upsert');
  return { gateways: next, replaced: index !== -1 };
}

/** Removes one gateway's capabilities (the document goes with the last one); `missing` when it was not configured. */
export async function removeGatewayCapability(state: CapabilityState, merchantId: string, gateway: string): Promise<'removed' | 'missing'> {
  const configured = await gatewayCapabilitiesOf(state, merchantId);
  const next = configured.filter((item) => item.gateway !== gateway);
  if (next.length === configured.length) return 'missing';
  await (next.length === 0 ? state.configs.delete(merchantId, 'gatewayCapabilities') : state.configs.put(merchantId, 'gatewayCapabilities', next, 'upsert'));
  return 'removed';
}
