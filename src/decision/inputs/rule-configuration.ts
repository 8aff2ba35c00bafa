import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { RuleConfigLookup, RuleConfigRequest } from '../../generated/schema-types.js';
import type { ConfigName, StateStore } from '../../ports/state-store.js';
import { requireMerchant } from './merchant-settings.js';

type RuleConfigState = Pick<StateStore, 'merchants' | 'configs'>;

/** The rule types a merchant configures: success rate, elimination and debit routing. */
export type RuleAlgorithm = RuleConfigLookup['algorithm'];
export type RuleConfig = RuleConfigRequest['config'];

const notFound = () => new SwitchyardError('SY_RULE_CONFIG_NOT_FOUND', { message: 'Rule configuration not found' });

/*
 * A merchant's rule configurations (/rule/create|get|update|delete). Writes go to the store, whose
 * caching layer invalidates every replica's copy before answering, so the very next decision sees
 * them. Every operation first requires the merchant (`SY_MERCHANT_NOT_FOUND`).
 */

/**
 * Creates (`SY_RULE_CONFIG_EXISTS` when there is one) or updates (`SY_RULE_CONFIG_NOT_FOUND` when
 * there is none) a rule configuration. Elimination keeps decision-engine 1.4.x's quirk: create and
 * update both overwrite, never refuse.
 */
export async function writeRuleConfig(state: RuleConfigState, merchantId: string, config: RuleConfig, mode: 'create' | 'update'): Promise<void> {
  await requireMerchant(state, merchantId);
  const effective = config.type === 'elimination' ? 'upsert' : mode;
  const result = await state.configs.put(merchantId, config.type as ConfigName, config.data as never, effective);
  if (result === 'exists') throw new SwitchyardError('SY_RULE_CONFIG_EXISTS', { message: 'Rule configuration already exists' });
  if (result === 'missing') throw notFound();
}

/** The stored configuration of one rule type; `SY_RULE_CONFIG_NOT_FOUND` when there is none. */
export async function readRuleConfig(state: RuleConfigState, merchantId: string, algorithm: RuleAlgorithm): Promise<RuleConfig> {
  await requireMerchant(state, merchantId);
  const data = await state.configs.get(merchantId, algorithm);
  if (data === undefined) throw notFound();
  return { type: algorithm, data } as RuleConfig;
}

/** Deletes the configuration of one rule type; `SY_RULE_CONFIG_NOT_FOUND` when there was none. */
export async function deleteRuleConfig(state: RuleConfigState, merchantId: string, algorithm: RuleAlgorithm): Promise<void> {
  await requireMerchant(state, merchantId);
  if (!(await state.configs.delete(merchantId, algorithm))) throw notFound();
}
