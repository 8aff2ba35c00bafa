import type { DebitRoutingConfig, EliminationConfig, GatewayCapability, SrDimensionConfig, SuccessRateConfig } from '../../generated/schema-types.js';
import type { KeyPolicy } from './key-policy.js';
import type { RouteGroup } from './route-group.js';

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
}
export type ConfigName = keyof MerchantConfigs;

/** Per-merchant config documents; the caching decorator serves reads from memory until an invalidation. */
export interface ConfigStore {
  get<K extends ConfigName>(merchantId: string, name: K): Promise<MerchantConfigs[K] | undefined>;
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
