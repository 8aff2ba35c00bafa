import type {
  DebitRoutingConfig,
  EliminationConfig,
  GatewayCapability,
  MerchantGuardrails,
  SrDimensionConfig,
  SuccessRateConfig,
} from '../../generated/schema-types.js';
import type { AutopilotRunLog } from './autopilot-runs.js';
import type { CostModel } from './cost-model.js';
import type { ExperimentGuardrailTrip } from './experiment-guardrail.js';
import type { MerchantGsmRules } from './gsm-rules.js';
import type { CostColumnMappings, CostIngestionRecord } from './cost-ingestions.js';
import type { KeyPolicy } from './key-policy.js';
import type { MerchantFeatureFlags } from './merchant-features.js';
import type { MerchantMcpServers } from './merchant-mcp-servers.js';
import type { ProviderCredentialsConfig } from './provider-credentials.js';
import type { RouteGroup } from './route-group.js';
import type { ReportingCurrencySetting } from './reporting-currency.js';
import type { SeedCostTable } from './seed-costs.js';
import type { SteeringPlan } from './volume-commitment.js';
import { type NotHeld, notHeld } from './held-read.js';

/** Every per-merchant config document, by name. */
export interface MerchantConfigs {
  successRate: SuccessRateConfig;
  elimination: EliminationConfig;
  debitRouting: DebitRoutingConfig;
  debitRoutingEnabled: boolean;
  srDimension: SrDimensionConfig;
  /** Per-gateway capabilities for the legacy /decision_gateway filter chain, in configuration order. */
  gatewayCapabilities: readonly GatewayCapability[];
  /** The OpenAI-compatible gateway's route groups, by name (learning router). */
  llmRouteGroups: readonly RouteGroup[];
  /** Limits and cache setting of the merchant's keys that set none of their own (issue 14). */
  apiKeyDefaults: KeyPolicy;
  /** Merchant feature flags (`GET /merchant-account/{id}/features`); absent = all off. */
  features: MerchantFeatureFlags;
  /** The merchant's edited seed cost table (contract rates); absent = the configured default. */
  seedCosts: SeedCostTable;
  /** The served cost model fitted by cost ingestion, with manual overrides. */
  costModel: CostModel;
  /** The merchant's tripped experiment guardrail (src/ports/state/experiment-guardrail.ts); absent = none. */
  experimentGuardrail: ExperimentGuardrailTrip;
  /** Gateway status map overrides and excused classes (docs/gsm.md); absent = the shipped map only. */
  gsmRules: MerchantGsmRules;
  /** Cost ingestion history, newest first, with each upload's cluster sums (src/ports/state/cost-ingestions.ts). */
  costIngestions: readonly CostIngestionRecord[];
  /** Saved settlement-report column mappings by `connector|account`. */
  costColumnMappings: CostColumnMappings;
  /** The autopilot's last runs, newest first (written by the run, read by `GET …/autopilot/runs`). */
  autopilotRuns: AutopilotRunLog;
  /** The merchant's own MCP servers by name (src/ports/state/merchant-mcp-servers.ts); absent = none. */
  mcpServers: MerchantMcpServers;
  /** The volume-commitment steering plan the forecaster last published (src/volume-commitment/); absent = none. */
  volumeCommitmentPlan: SteeringPlan;
  /** The merchant's own provider credentials, sealed (src/credentials/); absent = the operator's only. */
  providerCredentials: ProviderCredentialsConfig;
  /** The merchant's guardrails (issue 38): its own settings and those attached to keys and route groups; absent = the defaults only. */
  guardrails: MerchantGuardrails;
  /** The currency money reports are converted to, with the merchant's rates (src/costs/reporting-currency-settings.ts); absent = none. */
  reportingCurrency: ReportingCurrencySetting;
}
export type ConfigName = keyof MerchantConfigs;

/**
 * The invalidation key of one config document, published on the state store's invalidation channel
 * when it is written (by the caching decorator, or the embedded store itself): one format for every
 * replica and every in-process cache that listens.
 */
export function configInvalidationKey(merchantId: string, name: ConfigName): string {
  return `config:${merchantId}:${name}`;
}

/** Per-merchant config documents; the caching decorator serves reads from memory until an invalidation. */
export interface ConfigStore {
  get<K extends ConfigName>(merchantId: string, name: K): Promise<MerchantConfigs[K] | undefined>;
  /** {@link get} answered synchronously when held in process memory, else {@link notHeld} (see MerchantStore.held). */
  readonly held?: <K extends ConfigName>(merchantId: string, name: K) => MerchantConfigs[K] | undefined | NotHeld;
  /** Changes whenever any answer of {@link held} may have changed (see MerchantStore.heldVersion). */
  readonly heldVersion?: () => number;
  /**
   * Writes a config. `create` fails with 'exists' when present, `update` with 'missing' when absent,
   * `upsert` always writes.
   */
  put<K extends ConfigName>(
    merchantId: string,
    name: K,
    value: MerchantConfigs[K],
    mode: 'create' | 'update' | 'upsert',
  ): Promise<'written' | 'exists' | 'missing'>;
  delete(merchantId: string, name: ConfigName): Promise<boolean>;
}

/**
 * A config document for a hot path: the store's held copy when it has one in process memory (the
 * embedded store; the caching decorator while its copy is fresh), answered without a promise or a
 * store read, else read through `get`. A write invalidates the held copy, so the next call sees it.
 */
export function readConfig<K extends ConfigName>(
  configs: Pick<ConfigStore, 'get' | 'held'>,
  merchantId: string,
  name: K,
): MerchantConfigs[K] | undefined | Promise<MerchantConfigs[K] | undefined> {
  const held = configs.held === undefined ? notHeld : configs.held(merchantId, name);
  return held === notHeld ? configs.get(merchantId, name) : held;
}
