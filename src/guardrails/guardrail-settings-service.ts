import { SwitchyardError } from '../errors/switchyard-error.js';
import type { MerchantGuardrails, MerchantGuardrailsView } from '../generated/schema-types.js';
import type { ConfigStore } from '../ports/state/config-store.js';
import { GuardPolicy } from './guard-policy.js';
import { combineGuardSettings, defaultGuardSettings, type GuardSettings } from './guard-settings.js';

/**
 * A merchant's guardrails as operators manage them (`/guardrails`): read with the defaults and the
 * merchant-wide result, replaced whole, or removed (back to the defaults). Every layer is compiled before
 * it is stored, so a custom pattern that could backtrack catastrophically is refused at the door
 * (`SY_GUARDRAIL_INVALID`, 400) and never reaches a request.
 */
export class GuardrailSettingsService {
  readonly #configs: Pick<ConfigStore, 'get' | 'put' | 'delete'>;

  constructor(configs: Pick<ConfigStore, 'get' | 'put' | 'delete'>) {
    this.#configs = configs;
  }

  async get(merchantId: string): Promise<MerchantGuardrailsView> {
    return viewOf(merchantId, (await this.#configs.get(merchantId, 'guardrails')) ?? {});
  }

  /** @throws SwitchyardError `SY_GUARDRAIL_INVALID` naming the layer and pattern it refuses. */
  async put(merchantId: string, guardrails: MerchantGuardrails): Promise<MerchantGuardrailsView> {
    admit('settings', guardrails.settings);
    for (const [keyId, settings] of Object.entries(guardrails.keys ?? {})) admit(`keys.${keyId}`, settings);
    for (const [group, settings] of Object.entries(guardrails.routeGroups ?? {})) admit(`routeGroups.${group}`, settings);
    await this.#configs.put(merchantId, 'guardrails', guardrails, 'upsert');
    return viewOf(merchantId, guardrails);
  }

  /** Back to the defaults; false when the merchant had no settings. */
  async delete(merchantId: string): Promise<boolean> {
    return this.#configs.delete(merchantId, 'guardrails');
  }
}

function admit(layer: string, settings: GuardSettings | undefined): void {
  if (settings === undefined) return;
  const compiled = GuardPolicy.compile(combineGuardSettings(defaultGuardSettings, settings));
  if (!compiled.ok) throw new SwitchyardError('SY_GUARDRAIL_INVALID', { message: `${layer}: ${compiled.reason}`, details: { param: layer } });
}

function viewOf(merchantId: string, guardrails: MerchantGuardrails): MerchantGuardrailsView {
  return {
    merchant_id: merchantId,
    defaults: defaultGuardSettings,
    effective: combineGuardSettings(defaultGuardSettings, guardrails.settings),
    guardrails,
  };
}
