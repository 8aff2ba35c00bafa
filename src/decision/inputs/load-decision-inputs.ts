import { notHeld } from '../../ports/state/held-read.js';
import type { MerchantAccount, MerchantConfigs, RoutingAlgorithmRecord, StateStore } from '../../ports/state-store.js';
import type { DecisionInputs } from '../decide-gateway.js';

type InputStores = Pick<StateStore, 'merchants' | 'configs' | 'routingRules'>;

/**
 * Everything a decision needs to know about the merchant, read in one concurrent round.
 * Reads go straight to the store (or its caching decorator), so a config update or a merchant
 * deletion is visible to the very next decision. When the store holds every input in process
 * memory (the embedded store; the caching decorator while its copies are fresh) they are read
 * synchronously and the inputs come back without a promise: no await, no promise per read.
 */
export function loadDecisionInputs(state: InputStores, merchantId: string): DecisionInputs | Promise<DecisionInputs> {
  return heldDecisionInputs(state, merchantId) ?? readDecisionInputs(state, merchantId);
}

/** Merchants whose inputs a loader keeps before it starts over (a decision rebuilds a dropped one). */
const maxKeptMerchants = 10_000;

/** A merchant's inputs as built when the stores' versions summed to `version`. */
interface Kept {
  readonly version: number;
  readonly inputs: DecisionInputs;
}

/**
 * {@link loadDecisionInputs} for a hot path: when all three stores version their held answers (the
 * embedded store), each merchant's inputs are built once and served again while no merchant, config
 * or routing rule has changed since; any write to those tables (any merchant's) rebuilds them on the
 * next decision. Building them reads nine held documents, each by a key made for the read: ~1 µs of
 * every decision (bench/README.md). Without versions (the caching decorator, whose copies go stale on
 * a timer) every call loads as {@link loadDecisionInputs} does.
 */
export function createDecisionInputsLoader(state: InputStores): (merchantId: string) => DecisionInputs | Promise<DecisionInputs> {
  const { merchants, configs, routingRules } = state;
  const merchantsVersion = merchants.heldVersion;
  const configsVersion = configs.heldVersion;
  const rulesVersion = routingRules.heldVersion;
  if (merchantsVersion === undefined || configsVersion === undefined || rulesVersion === undefined) {
    return (merchantId) => loadDecisionInputs(state, merchantId);
  }
  const kept = new Map<string, Kept>();
  return (merchantId) => {
    // Versions only grow, so their sum changes whenever one of them does.
    const version = merchantsVersion() + configsVersion() + rulesVersion();
    const known = kept.get(merchantId);
    if (known !== undefined && known.version === version) return known.inputs;
    const inputs = heldDecisionInputs(state, merchantId);
    if (inputs === undefined) return readDecisionInputs(state, merchantId);
    if (known === undefined && kept.size >= maxKeptMerchants) kept.clear();
    kept.set(merchantId, { version, inputs });
    return inputs;
  };
}

/** The inputs from the stores' synchronous reads; undefined when one is not held (or a store has none). */
function heldDecisionInputs(state: InputStores, merchantId: string): DecisionInputs | undefined {
  const { merchants, configs, routingRules } = state;
  if (merchants.held === undefined || configs.held === undefined || routingRules.heldActive === undefined) return undefined;
  const merchant = merchants.held(merchantId);
  if (merchant === notHeld) return undefined;
  const successRate = configs.held(merchantId, 'successRate');
  if (successRate === notHeld) return undefined;
  const elimination = configs.held(merchantId, 'elimination');
  if (elimination === notHeld) return undefined;
  const srDimension = configs.held(merchantId, 'srDimension');
  if (srDimension === notHeld) return undefined;
  const debitRoutingEnabled = configs.held(merchantId, 'debitRoutingEnabled');
  if (debitRoutingEnabled === notHeld) return undefined;
  const activeRules = routingRules.heldActive(merchantId);
  if (activeRules === notHeld) return undefined;
  const features = configs.held(merchantId, 'features');
  if (features === notHeld) return undefined;
  const seedCosts = configs.held(merchantId, 'seedCosts');
  if (seedCosts === notHeld) return undefined;
  const costModel = configs.held(merchantId, 'costModel');
  if (costModel === notHeld) return undefined;
  return inputsOf(merchant, successRate, elimination, srDimension, debitRoutingEnabled, activeRules, features, seedCosts, costModel);
}

async function readDecisionInputs(state: InputStores, merchantId: string): Promise<DecisionInputs> {
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
  return inputsOf(merchant, successRate, elimination, srDimension, debitRoutingEnabled, activeRules, features, seedCosts, costModel);
}

type ConfigOf<K extends keyof MerchantConfigs> = MerchantConfigs[K] | undefined;

function inputsOf(
  merchant: MerchantAccount | undefined,
  successRate: ConfigOf<'successRate'>,
  elimination: ConfigOf<'elimination'>,
  srDimension: ConfigOf<'srDimension'>,
  debitRoutingEnabled: ConfigOf<'debitRoutingEnabled'>,
  activeRules: readonly RoutingAlgorithmRecord[],
  features: ConfigOf<'features'>,
  seedCosts: ConfigOf<'seedCosts'>,
  costModel: ConfigOf<'costModel'>,
): DecisionInputs {
  // Optional parts assigned, not spread in: no intermediate objects per decision.
  const inputs: Mutable<DecisionInputs> = { merchant, successRate, elimination, srDimension, debitRoutingEnabled: debitRoutingEnabled === true, activeRules };
  if (features !== undefined) inputs.features = features;
  if (seedCosts !== undefined) inputs.seedCosts = seedCosts;
  if (costModel !== undefined) inputs.costModel = costModel;
  return inputs;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
