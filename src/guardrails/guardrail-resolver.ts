import { SwitchyardError } from '../errors/switchyard-error.js';
import { type ConfigStore, readConfig } from '../ports/state/config-store.js';
import { detectorKinds } from './detection.js';
import { GuardPolicy } from './guard-policy.js';
import { GuardSession } from './guard-session.js';
import { combineGuardSettings, defaultGuardSettings, type GuardAction, type GuardSettings, guardActions } from './guard-settings.js';

/** Whose call is being guarded: the merchant, the key and route group it came with, a request header, a library call's own settings. */
export interface GuardrailScope {
  readonly merchantId?: string | undefined;
  readonly apiKeyId?: string | undefined;
  /** The `model` the request named: when it is one of the merchant's route groups, that group's guards apply. */
  readonly model?: string | undefined;
  /** `x-switchyard-guardrails`: guards this request adds (never removes). */
  readonly header?: string | undefined;
  /** Settings of the caller itself (the library's `guardrails` option, per instance and per call). */
  readonly extra?: readonly (GuardSettings | undefined)[];
}

/** The request header through which a caller adds guards to one request. */
export const guardrailHeader = 'x-switchyard-guardrails';

/** Compiled policies kept, by their settings; a merchant has a handful, so this only bounds a pathological mix. */
const maxCachedPolicies = 512;

/**
 * Which guards apply to a call, in one place for every surface: the defaults (card numbers masked), the
 * merchant's settings, those attached to the API key and to the route group, the library caller's, and a
 * request header, combined so that each layer can only add guards or make them stricter. Settings are
 * compiled once and cached by their content.
 */
export class GuardrailResolver {
  readonly #configs: Pick<ConfigStore, 'get' | 'held'> | undefined;
  readonly #policies = new Map<string, GuardPolicy>();

  constructor(deps: { readonly configs?: Pick<ConfigStore, 'get' | 'held'> | undefined } = {}) {
    this.#configs = deps.configs;
  }

  /** The combined settings of a scope. @throws SwitchyardError `SY_GUARDRAIL_INVALID` for a malformed header. */
  async settingsFor(scope: GuardrailScope): Promise<GuardSettings> {
    let settings = defaultGuardSettings;
    if (this.#configs !== undefined && scope.merchantId !== undefined) {
      // The store's held copy when it has one (no store read per call); a write drops it, so a change applies to the next call.
      const stored = await readConfig(this.#configs, scope.merchantId, 'guardrails');
      if (stored !== undefined) {
        settings = combineGuardSettings(settings, stored.settings);
        if (scope.apiKeyId !== undefined) settings = combineGuardSettings(settings, stored.keys?.[scope.apiKeyId]);
        if (scope.model !== undefined) settings = combineGuardSettings(settings, stored.routeGroups?.[scope.model]);
      }
    }
    for (const extra of scope.extra ?? []) settings = combineGuardSettings(settings, extra);
    if (scope.header !== undefined && scope.header.trim() !== '') settings = combineGuardSettings(settings, parseGuardrailHeader(scope.header));
    return settings;
  }

  /** A fresh session (its own vault) for one call of the scope. */
  async sessionFor(scope: GuardrailScope): Promise<GuardSession> {
    return new GuardSession(this.policyOf(await this.settingsFor(scope)));
  }

  /** The compiled policy of settings. @throws SwitchyardError `SY_GUARDRAIL_INVALID` when a custom pattern is refused. */
  policyOf(settings: GuardSettings): GuardPolicy {
    const key = JSON.stringify(settings);
    const cached = this.#policies.get(key);
    if (cached !== undefined) return cached;
    const compiled = GuardPolicy.compile(settings);
    if (!compiled.ok) throw new SwitchyardError('SY_GUARDRAIL_INVALID', { message: compiled.reason });
    if (this.#policies.size >= maxCachedPolicies) this.#policies.clear();
    this.#policies.set(key, compiled.policy);
    return compiled.policy;
  }
}

const headerGuards = new Set<string>([...detectorKinds, 'prompt-injection', 'indirect-injection']);

/**
 * The guards a request header adds: a comma-separated list of `guard` or `guard=action`
 * (`email, phone=block, prompt-injection`). A detector named alone masks; an injection guard named alone blocks.
 *
 * @throws SwitchyardError `SY_GUARDRAIL_INVALID` naming the entry it cannot read.
 */
export function parseGuardrailHeader(value: string): GuardSettings {
  const settings: Record<string, { action: GuardAction }> = {};
  for (const entry of value.split(',')) {
    const trimmed = entry.trim();
    if (trimmed === '') continue;
    const [guard = '', action] = trimmed.split('=').map((part) => part.trim());
    if (!headerGuards.has(guard)) throw invalidHeader(`unknown guard "${guard.slice(0, 40)}"`);
    if (action !== undefined && !(guardActions as readonly string[]).includes(action))
      throw invalidHeader(`unknown action "${action.slice(0, 20)}" for ${guard}`);
    const fallback: GuardAction = guard.endsWith('injection') ? 'block' : 'mask';
    settings[guard] = { action: (action as GuardAction | undefined) ?? fallback };
  }
  return settings as GuardSettings;
}

function invalidHeader(reason: string): SwitchyardError {
  return new SwitchyardError('SY_GUARDRAIL_INVALID', {
    message: `${guardrailHeader}: ${reason}; expected a comma-separated list of guard or guard=action (log, mask, block)`,
  });
}
