import type { ApiKeyRecord, StateStore } from '../ports/state-store.js';
import type { KeyUsage } from '../ports/state/usage-store.js';
import { effectivePolicy, type BudgetPeriod, type KeyPolicy } from './key-policy.js';

/** One key of a merchant with the policy that applies to it and what it has used so far. */
export interface KeyWithUsage {
  readonly record: ApiKeyRecord;
  /** The key's own limits and cache, field by field over the merchant's defaults. */
  readonly effective: KeyPolicy;
  /** The budget period `usage.spendThisPeriodUsd` covers (`day` when the key has no budget). */
  readonly period: BudgetPeriod;
  readonly usage: KeyUsage;
}

export interface ListKeysWithUsageDeps {
  readonly state: Pick<StateStore, 'apiKeys' | 'configs' | 'usage'>;
  readonly now: () => number;
}

/**
 * A merchant's keys (active and revoked), each with its effective policy and its usage in the current minute and budget
 * period: the keys and the merchant's defaults are read in one round, then each key's usage.
 */
export async function listKeysWithUsage(deps: ListKeysWithUsageDeps, merchantId: string): Promise<readonly KeyWithUsage[]> {
  const [records, merchantDefault] = await Promise.all([deps.state.apiKeys.listByMerchant(merchantId), deps.state.configs.get(merchantId, 'apiKeyDefaults')]);
  const nowMs = deps.now();
  return Promise.all(
    records.map(async (record) => {
      const effective = effectivePolicy(record.policy, merchantDefault);
      const period = effective.limits?.budget?.period ?? 'day';
      return { record, effective, period, usage: await deps.state.usage.usage(record.keyId, period, nowMs) };
    }),
  );
}
