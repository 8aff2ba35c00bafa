import type { ProviderDefinition, ProviderEnv, ProviderOverrides } from '../generation/provider-definition.js';
import { missingProviderEnv } from '../generation/provider-env.js';
import type { EmbeddingClient } from '../generation/embeddings/embedding-client.js';
import type { ModerationClient } from '../generation/moderation/moderation-client.js';
import type { LanguageModelClient } from '../generation/language-model-client.js';
import type { ProviderCatalog } from '../generation/provider-catalog.js';
import { providerNames, type ProviderName } from '../generation/provider-name.js';
import { providerSecretsOf, withScrubbedEmbeddingErrors, withScrubbedErrors, withScrubbedModerationErrors } from './scrub-provider-secrets.js';

/** The part of the model registry the catalog uses: a provider's default model. */
export interface DefaultModelSource {
  getDefaultModel(provider: string): { readonly id: string } | undefined;
}

export interface ProviderCatalogOptions {
  readonly definitions: Readonly<Record<ProviderName, ProviderDefinition>>;
  readonly env: ProviderEnv;
  readonly registry?: DefaultModelSource | undefined;
  readonly overrides?: ProviderOverrides | undefined;
}

/**
 * The domain's `ProviderCatalog` over the adapters' provider definitions and the loaded
 * environment. Model precedence (reference §2): the call's model > the provider's model variable
 * (`OPENAI_MODEL`, …) > the local registry's default > the definition's built-in default.
 * Its clients' errors never carry the environment's credentials (src/toolkit/scrub-provider-secrets.ts).
 */
export function createProviderCatalog(options: ProviderCatalogOptions): ProviderCatalog {
  const { definitions, env } = options;
  const missing = (name: ProviderName): string | undefined => missingProviderEnv(definitions[name], env);
  const defaultModel = (name: ProviderName): string => {
    const definition = definitions[name];
    for (const variable of definition.modelEnv) {
      const value = env[variable]?.trim();
      if (value) return value;
    }
    return options.registry?.getDefaultModel(name)?.id ?? definition.defaultModel;
  };
  // A provider quoting the key it refused must not hand it on to the caller or the logs.
  const secrets = providerSecretsOf(env);
  return {
    names: providerNames,
    isConfigured: (name) => missing(name) === undefined,
    missingEnv: (name) => missing(name)?.split(', ') ?? [],
    defaultModel,
    defaultTimeoutMs: (name) => definitions[name].defaultTimeoutMs?.(env),
    createClient(name, modelId): LanguageModelClient {
      return withScrubbedErrors(definitions[name].create(env, modelId ?? defaultModel(name), options.overrides), secrets);
    },
    createEmbeddingClient(name, modelId): EmbeddingClient | undefined {
      const embeddings = definitions[name].embeddings;
      const client = embeddings?.create(env, modelId ?? embeddings.defaultModel, options.overrides);
      return client === undefined ? undefined : withScrubbedEmbeddingErrors(client, secrets);
    },
    createModerationClient(name, modelId): ModerationClient | undefined {
      const moderation = definitions[name].moderation;
      const client = moderation?.create(env, modelId ?? moderation.defaultModel, options.overrides);
      return client === undefined ? undefined : withScrubbedModerationErrors(client, secrets);
    },
  };
}
