import { SwitchyardError } from '../errors/switchyard-error.js';
import type { SeedCostTable } from '../ports/state/seed-costs.js';
import type { StateStore } from '../ports/state-store.js';
import { requireMerchant } from '../decision/inputs/merchant-settings.js';
import { costScenarioOf, type ScenarioFields } from './cost-scenario.js';
import { effectiveSeedTable, normaliseSeedTable, seedTableProblem } from './seed-cost-table.js';
import { type SeedCostQuote, simulateSeedCosts } from './simulate-seed-costs.js';

type SeedState = Pick<StateStore, 'merchants' | 'configs'>;

const invalid = (message: string) => new SwitchyardError('SY_REQUEST_INVALID', { message });

/*
 * A merchant's seed cost table (contract rates), the ConfigStore document `seedCosts`: read (the
 * default table until one is saved), replace, reset, and a price preview. Every operation first
 * requires the merchant (`SY_MERCHANT_NOT_FOUND`); the caller's mistakes are `SY_REQUEST_INVALID`.
 */

/** The table in effect for the merchant. */
export async function readSeedCosts(state: SeedState, merchantId: string): Promise<SeedCostTable> {
  await requireMerchant(state, merchantId);
  return effectiveSeedTable(await state.configs.get(merchantId, 'seedCosts'));
}

/**
 * Replaces the merchant's whole table and answers it as stored (normalised: one default row per
 * PSP, blank dimensions as wildcards). Refuses a row without a PSP or with a negative fee, saving
 * nothing. An empty table is stored as such and reads back as the default table.
 */
export async function saveSeedCosts(state: SeedState, merchantId: string, rows: SeedCostTable): Promise<SeedCostTable> {
  const problem = seedTableProblem(rows);
  if (problem !== undefined) throw invalid(problem);
  await requireMerchant(state, merchantId);
  const table = normaliseSeedTable(rows);
  await state.configs.put(merchantId, 'seedCosts', table, 'upsert');
  return effectiveSeedTable(table);
}

/** Drops the merchant's saved table and answers the default one. */
export async function resetSeedCosts(state: SeedState, merchantId: string): Promise<SeedCostTable> {
  await requireMerchant(state, merchantId);
  await state.configs.delete(merchantId, 'seedCosts');
  return effectiveSeedTable(undefined);
}

/** Prices one scenario per PSP with the table in effect; a non-positive amount is refused. */
export async function previewSeedCosts(state: SeedState, merchantId: string, fields: ScenarioFields, psps: readonly string[]): Promise<SeedCostQuote[]> {
  if (!Number.isFinite(fields.amount) || fields.amount <= 0) throw invalid('amount must be a positive number');
  const table = await readSeedCosts(state, merchantId);
  return simulateSeedCosts(table, costScenarioOf(fields), psps);
}
