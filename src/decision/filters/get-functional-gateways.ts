import type { GatewayCapability } from '../../generated/schema-types.js';

/**
 * The chain's starting set: the merchant's configured gateways, narrowed to the request's
 * `enforceGatewayList` when it names any (in the enforced order, duplicates and unconfigured names
 * dropped); in configuration order otherwise.
 */
export function getFunctionalGateways(configured: readonly GatewayCapability[], enforced: readonly string[] | null | undefined): readonly GatewayCapability[] {
  if (enforced === null || enforced === undefined || enforced.length === 0) return configured;
  const byName = new Map(configured.map((gateway) => [gateway.gateway, gateway]));
  const picked: GatewayCapability[] = [];
  for (const name of new Set(enforced)) {
    const gateway = byName.get(name);
    if (gateway !== undefined) picked.push(gateway);
  }
  return picked;
}
