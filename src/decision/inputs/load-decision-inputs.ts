import type { StateStore } from '../../ports/state-store.js';
import type { DecisionInputs } from '../decide-gateway.js';

/**
 * Everything a decision needs to know about the merchant, read in one concurrent round.
 * Reads go straight to the store (or its caching decorator), so a config update or a merchant
 * deletion is visible to the very next decision.
 */
export async function loadDecisionInputs(state: Pick<StateStore, 'merchants' | 'configs' | 'routingRules'>, merchantId: string): Promise<DecisionInputs> {
  // The active routing rules come in the same round (from the cache on Redis deployments), so a
  // merchant without rules costs no extra await.
  // The cost-aware post-step's inputs (flags, seed table, cost model) come in the same round too.
  const [merchant, successRate, elimination, srDimension, debitRoutingEnabled, activeRules, features, seedCosts, costModel] = await Promise.all([
    state.merchants.get(merchantId),
    state.configs.get(merchantId, 'successRate'),
    state.configs.get(merchantId, 'elimination'),
    state.configs.get(merchantId, 'srDimension'),
    state.configs.get(merchantId, 'debitRoutingEnabled'),
    state.routingRules.loadActive(merchantId),
    state.configs.get(merchantId, 'features'),
    state.configs.get(merchantId, 'seedCosts'),
    state.configs.get(merchantId, 'costModel'),
  ]);
  // Optional parts assigned, not spread in: no intermediate objects per decision.
  const inputs: Mutable<DecisionInputs> = { merchant, successRate, elimination, srDimension, debitRoutingEnabled: debitRoutingEnabled === true, activeRules };
  if (features !== undefined) inputs.features = features;
  if (seedCosts !== undefined) inputs.seedCosts = seedCosts;
  if (costModel !== undefined) inputs.costModel = costModel;
  return inputs;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
