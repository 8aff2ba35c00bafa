import { SwitchyardError } from '../errors/switchyard-error.js';
import type { ConfigStore } from '../ports/state-store.js';
import {
  credentialKey,
  credentialNamePattern,
  credentialOfKey,
  defaultCredentialName,
  type ProviderCredentialsConfig,
  type StoredProviderCredential,
} from '../ports/state/provider-credentials.js';
import type { CredentialVault } from './credential-vault.js';
import { providerCredentialVariables } from './provider-credential-variables.js';

/** What the provider-protocol layer needs of a merchant's credentials: variables over the operator's. */
export interface MerchantProviderEnv {
  /** The merchant's variables, every provider's, decrypted (in memory only). */
  readonly variables: Readonly<Record<string, string>>;
  /** The providers those variables serve. */
  readonly ownProviders: readonly string[];
  /**
   * The merchant's named credentials (a route group candidate's `credential`), by
   * `credentialKey(provider, name)`: each one's variables, decrypted; never merged into `variables`.
   */
  readonly named: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** False: the operator's credentials are not used for this merchant's calls. */
  readonly operatorFallback: boolean;
}

/** A stored credential as the API shows it: never a value. */
export interface ProviderCredentialView {
  readonly provider: string;
  /** `default` for the credential every call of the provider uses; another name only a route group candidate picks. */
  readonly name: string;
  readonly variables: readonly string[];
  readonly hint: string;
  readonly keyId: string;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
  readonly rotatedAtMs: number | undefined;
}

function viewOf(key: string, stored: StoredProviderCredential): ProviderCredentialView {
  const { provider, name } = credentialOfKey(key);
  return {
    provider,
    name,
    variables: stored.variables,
    hint: stored.hint,
    keyId: stored.sealed.kid,
    createdAtMs: stored.createdAtMs ?? stored.updatedAtMs,
    updatedAtMs: stored.updatedAtMs,
    rotatedAtMs: stored.rotatedAtMs,
  };
}

const maxValueLength = 16_384;
const empty: ProviderCredentialsConfig = { operatorFallback: true, providers: {} };

function invalid(message: string, field: string): SwitchyardError {
  return new SwitchyardError('SY_REQUEST_INVALID', { message, details: { field } });
}

/**
 * A merchant's own provider accounts (issue 39): stored sealed in its `providerCredentials` config
 * (envelope encryption, src/credentials/credential-vault.ts), never returned or logged, and handed
 * to the provider-protocol layer as variables over the operator's environment.
 */
export class MerchantProviderCredentials {
  readonly #configs: Pick<ConfigStore, 'get' | 'put'>;
  readonly #vault: CredentialVault;
  readonly #now: () => number;
  /**
   * Decrypted variables by merchant, kept while the stored version is unchanged (a call never
   * decrypts twice). The one cache of a merchant's credentials: `envOf` hands out the same object
   * until they change, so what is built from them (the merchant's provider catalogs) keys on it.
   */
  readonly #opened = new Map<string, { readonly version: string; readonly env: MerchantProviderEnv }>();

  constructor(deps: { configs: Pick<ConfigStore, 'get' | 'put'>; vault: CredentialVault; now: () => number }) {
    this.#configs = deps.configs;
    this.#vault = deps.vault;
    this.#now = deps.now;
  }

  async list(merchantId: string): Promise<{ operatorFallback: boolean; credentials: ProviderCredentialView[] }> {
    const config = (await this.#configs.get(merchantId, 'providerCredentials')) ?? empty;
    const credentials = Object.entries(config.providers)
      .map(([key, stored]) => viewOf(key, stored))
      .sort(
        (a, b) =>
          a.provider.localeCompare(b.provider) || (a.name === defaultCredentialName ? -1 : b.name === defaultCredentialName ? 1 : a.name.localeCompare(b.name)),
      );
    return { operatorFallback: config.operatorFallback, credentials };
  }

  /**
   * Stores (replaces) the merchant's credentials of `provider` under `name` (default: the one every
   * call of the provider uses; another name is used only where a route group candidate names it).
   * @throws SwitchyardError SY_REQUEST_INVALID naming the provider, name or variable that is refused.
   */
  async put(merchantId: string, provider: string, variables: Readonly<Record<string, unknown>>, name = defaultCredentialName): Promise<ProviderCredentialView> {
    if (!credentialNamePattern.test(name)) throw invalid(`credential name "${name}" must be 1-32 lower-case letters, digits, "-" or "_"`, 'name');
    const values = checkedValues(provider, variables);
    const accepted = providerCredentialVariables[provider] ?? [];
    const key = credentialKey(provider, name);
    const config = (await this.#configs.get(merchantId, 'providerCredentials')) ?? empty;
    const first = values[accepted[0]?.name ?? ''] ?? '';
    const now = this.#now();
    const stored: StoredProviderCredential = {
      sealed: this.#vault.seal(JSON.stringify(values), sealContext(merchantId, key)),
      variables: Object.keys(values).sort(),
      hint: first.length >= 12 ? first.slice(-4) : '',
      createdAtMs: config.providers[key]?.createdAtMs ?? config.providers[key]?.updatedAtMs ?? now,
      updatedAtMs: now,
    };
    await this.#configs.put(merchantId, 'providerCredentials', { ...config, providers: { ...config.providers, [key]: stored } }, 'upsert');
    return viewOf(key, stored);
  }

  /** Removes the merchant's credential `name` of `provider`; false when it had none. */
  async remove(merchantId: string, provider: string, name = defaultCredentialName): Promise<boolean> {
    const key = credentialKey(provider, name);
    const config = await this.#configs.get(merchantId, 'providerCredentials');
    if (config?.providers[key] === undefined) return false;
    const { [key]: _removed, ...rest } = config.providers;
    await this.#configs.put(merchantId, 'providerCredentials', { ...config, providers: rest }, 'upsert');
    return true;
  }

  async setOperatorFallback(merchantId: string, allowed: boolean): Promise<void> {
    const config = (await this.#configs.get(merchantId, 'providerCredentials')) ?? empty;
    await this.#configs.put(merchantId, 'providerCredentials', { ...config, operatorFallback: allowed }, 'upsert');
  }

  /** Seals every stored credential of the merchant again under the active key; returns how many moved. */
  async rotate(merchantId: string): Promise<number> {
    const config = await this.#configs.get(merchantId, 'providerCredentials');
    if (config === undefined) return 0;
    let moved = 0;
    const providers: Record<string, StoredProviderCredential> = {};
    const now = this.#now();
    for (const [key, stored] of Object.entries(config.providers)) {
      const sealed = this.#vault.reseal(stored.sealed, sealContext(merchantId, key));
      if (sealed === stored.sealed) providers[key] = stored;
      else {
        moved += 1;
        providers[key] = { ...stored, sealed, rotatedAtMs: now };
      }
    }
    if (moved > 0) await this.#configs.put(merchantId, 'providerCredentials', { ...config, providers }, 'upsert');
    return moved;
  }

  /**
   * The merchant's variables for its calls, or undefined when it stored none and allows the operator's.
   * The same object while the stored credentials and the setting are unchanged; a new one after any change.
   */
  async envOf(merchantId: string): Promise<MerchantProviderEnv | undefined> {
    const config = await this.#configs.get(merchantId, 'providerCredentials');
    if (config === undefined || (config.operatorFallback && Object.keys(config.providers).length === 0)) return undefined;
    const entries = Object.entries(config.providers);
    const version = [String(config.operatorFallback), ...entries.map(([provider, stored]) => `${provider}:${stored.sealed.iv}`)].join('|');
    const cached = this.#opened.get(merchantId);
    if (cached?.version === version) return cached.env;
    const variables: Record<string, string> = {};
    const named: Record<string, Record<string, string>> = {};
    const ownProviders: string[] = [];
    for (const [key, stored] of entries) {
      const values = JSON.parse(this.#vault.open(stored.sealed, sealContext(merchantId, key))) as Record<string, string>;
      if (credentialOfKey(key).name !== defaultCredentialName) named[key] = values;
      else {
        Object.assign(variables, values);
        ownProviders.push(key);
      }
    }
    const env = { variables, named, ownProviders, operatorFallback: config.operatorFallback };
    // Bounded: the merchants of one process; a changed version replaces the entry.
    if (this.#opened.size >= 10_000) this.#opened.clear();
    this.#opened.set(merchantId, { version, env });
    return env;
  }
}

/** What a sealed credential is bound to (its key: provider, and name when not the default): a record copied to another merchant, provider or name does not open. */
function sealContext(merchantId: string, key: string): string {
  return `provider-credential|${merchantId}|${key}`;
}

/**
 * The variables of a credential of `provider`, checked and trimmed.
 * @throws SwitchyardError SY_REQUEST_INVALID naming the provider or variable that is refused (never its value).
 */
function checkedValues(provider: string, variables: Readonly<Record<string, unknown>>): Record<string, string> {
  const accepted = providerCredentialVariables[provider];
  if (accepted === undefined)
    throw invalid(`provider "${provider}" takes no merchant credentials; one of: ${Object.keys(providerCredentialVariables).join(', ')}`, 'provider');
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(variables)) {
    const variable = accepted.find((candidate) => candidate.name === name);
    if (variable === undefined) throw invalid(`${name} is not a ${provider} credential variable (expected ${accepted.map((v) => v.name).join(', ')})`, name);
    if (typeof value !== 'string' || value.trim() === '' || value.length > maxValueLength)
      throw invalid(`${name} must be a non-empty string of at most ${maxValueLength} characters`, name);
    const problem = variable.check?.(value.trim());
    if (problem !== undefined) throw invalid(`${name} ${problem}`, name);
    values[name] = value.trim();
  }
  const missing = accepted.filter((variable) => variable.required && values[variable.name] === undefined).map((variable) => variable.name);
  if (missing.length > 0) throw invalid(`${provider} credentials need ${missing.join(', ')}`, missing[0] as string);
  return values;
}
