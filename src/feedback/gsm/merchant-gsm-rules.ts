import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { GsmOverrideRule, GsmUnifiedCode, MerchantGsmRules } from '../../ports/state/gsm-rules.js';
import type { StateStore } from '../../ports/state-store.js';
import { requireMerchant } from '../../decision/inputs/merchant-settings.js';
import { defaultExcusedClasses } from './gsm-classes.js';

type GsmRulesState = Pick<StateStore, 'merchants' | 'configs'>;

/** A merchant's status-map settings as the API shows them: the excused classes resolved to the default when unset. */
export interface GsmRulesView {
  readonly rules: readonly GsmOverrideRule[];
  readonly excusedClasses: readonly GsmUnifiedCode[];
}

/** The settings of an existing merchant (`SY_MERCHANT_NOT_FOUND` otherwise); none saved = no overrides. */
export async function readGsmRules(state: GsmRulesState, merchantId: string): Promise<GsmRulesView> {
  await requireMerchant(state, merchantId);
  return viewOf(await state.configs.get(merchantId, 'gsmRules'));
}

/**
 * Replaces the merchant's override rules (and excused classes, when given) as a whole. A rule must
 * name at least an error code, a message or an issuer code (`SY_REQUEST_INVALID` naming the rule
 * otherwise), so no rule classifies every error of a gateway by accident.
 */
export async function writeGsmRules(state: GsmRulesState, merchantId: string, settings: MerchantGsmRules): Promise<GsmRulesView> {
  settings.rules.forEach((rule, index) => {
    if (!hasMatchField(rule)) {
      throw new SwitchyardError('SY_REQUEST_INVALID', {
        message: `rules[${index}] must set errorCode, errorMessage or issuerErrorCode (a rule without one would match every error)`,
      });
    }
  });
  await requireMerchant(state, merchantId);
  const stored: MerchantGsmRules = { rules: settings.rules, ...(settings.excusedClasses != null ? { excusedClasses: settings.excusedClasses } : {}) };
  await state.configs.put(merchantId, 'gsmRules', stored, 'upsert');
  return viewOf(stored);
}

/** Drops the merchant's settings: the shipped map and the default excused classes apply again. */
export async function deleteGsmRules(state: GsmRulesState, merchantId: string): Promise<GsmRulesView> {
  await requireMerchant(state, merchantId);
  await state.configs.delete(merchantId, 'gsmRules');
  return viewOf(undefined);
}

function viewOf(stored: MerchantGsmRules | undefined): GsmRulesView {
  return { rules: stored?.rules ?? [], excusedClasses: stored?.excusedClasses ?? defaultExcusedClasses };
}

function hasMatchField(rule: GsmOverrideRule): boolean {
  return [rule.errorCode, rule.errorMessage, rule.issuerErrorCode].some((value) => typeof value === 'string' && value.trim() !== '');
}
