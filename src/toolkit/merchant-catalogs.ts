import type { MerchantProviderEnv } from '../credentials/merchant-provider-credentials.js';
import { credentialVariableName } from '../credentials/provider-credential-variables.js';
import type { ProviderCatalog } from '../generation/provider-catalog.js';
import type { ScopedCatalog } from '../generation/provider-calls.js';
import { credentialKey, defaultCredentialName } from '../ports/state/provider-credentials.js';
import { createProviderCatalog, type ProviderCatalogOptions } from './provider-catalog.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The provider catalogs of merchants with credentials of their own (issue 39): each merchant's
 * stored variables over the operator's environment (without the operator's credentials when the
 * merchant forbade them), and a catalog per named credential (a route group candidate's
 * `credential`) built on first use. Derived from the credentials' own cache: `envOf` returns the
 * same object while a merchant's credentials are unchanged, so a catalog is kept per that object
 * (a weak map: no version or bound of its own; a credentials change drops it with the old object).
 */
export class MerchantCatalogs {
  readonly #envOf: (merchantId: string) => Promise<MerchantProviderEnv | undefined>;
  readonly #operatorEnv: Env;
  readonly #options: Omit<ProviderCatalogOptions, 'env'>;
  readonly #built = new WeakMap<MerchantProviderEnv, ScopedCatalog>();

  constructor(envOf: (merchantId: string) => Promise<MerchantProviderEnv | undefined>, operatorEnv: Env, options: Omit<ProviderCatalogOptions, 'env'>) {
    this.#envOf = envOf;
    this.#operatorEnv = operatorEnv;
    this.#options = options;
  }

  /** The merchant's scope, or undefined when it stored nothing and allows the operator's credentials. */
  async scopeOf(merchantId: string): Promise<ScopedCatalog | undefined> {
    const own = await this.#envOf(merchantId);
    if (own === undefined) return undefined;
    const cached = this.#built.get(own);
    if (cached !== undefined) return cached;
    const scoped = this.#build(own);
    this.#built.set(own, scoped);
    return scoped;
  }

  #build(own: MerchantProviderEnv): ScopedCatalog {
    const operator = own.operatorFallback ? this.#operatorEnv : withoutCredentials(this.#operatorEnv);
    const env = { ...operator, ...own.variables };
    const catalog = createProviderCatalog({ ...this.#options, env });
    const named = new Map<string, ProviderCatalog>();
    const credentialCatalog = (provider: string, name: string): ProviderCatalog | undefined => {
      if (name === defaultCredentialName) return own.ownProviders.includes(provider) ? catalog : undefined;
      const key = credentialKey(provider, name);
      const variables = own.named[key];
      if (variables === undefined) return undefined;
      // That credential's variables over the merchant's environment: only its provider's change.
      const built = named.get(key) ?? createProviderCatalog({ ...this.#options, env: { ...env, ...variables } });
      named.set(key, built);
      return built;
    };
    return { catalog, ownProviders: own.ownProviders, credentialCatalog };
  }
}

/** The operator's environment without its credentials (a merchant that forbade them gets this under its own). */
function withoutCredentials(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !credentialVariableName.test(name)));
}
