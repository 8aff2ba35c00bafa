import { normalizeProviderName, type ProviderName } from '../provider-name.js';

/** The registry as the gateway needs it: a model by name or alias. */
export interface GatewayModelLookup {
  getModelConfig(nameOrId: string): { readonly provider: string; readonly key: string; readonly id: string } | undefined;
}

/** Where a gateway request goes, and how its `model` was read (reported in a response header). */
export interface GatewayTarget {
  readonly provider: ProviderName;
  readonly model: string;
  readonly approach: 'explicit' | 'registry';
}

/**
 * Reads an OpenAI `model`: `provider/model` names both (the model passes as given), anything else
 * is looked up in the registry by alias, key or id. Undefined when it names nothing known.
 */
export function resolveGatewayModel(model: string, registry: GatewayModelLookup): GatewayTarget | undefined {
  const slash = model.indexOf('/');
  if (slash > 0) {
    const provider = normalizeProviderName(model.slice(0, slash));
    const rest = model.slice(slash + 1);
    if (provider !== undefined && provider !== 'auto' && rest !== '') return { provider, model: rest, approach: 'explicit' };
  }
  const found = registry.getModelConfig(model);
  if (found === undefined) return undefined;
  const provider = normalizeProviderName(found.provider);
  if (provider === undefined || provider === 'auto') return undefined;
  return { provider, model: found.id, approach: 'registry' };
}
