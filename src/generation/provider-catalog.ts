import type { EmbeddingClient } from './embeddings/embedding-client.js';
import type { LanguageModelClient } from './language-model-client.js';
import type { ModerationClient } from './moderation/moderation-client.js';
import type { ProviderName } from './provider-name.js';

/**
 * What the generation domain needs to know about provider kinds: which are configured, what is
 * missing, the default model, and how to get a client. The toolkit builds it from the provider
 * definitions in `src/adapters/llm/` and the loaded environment.
 *
 * @remarks Deliberately offline: "configured" means the required variables are set, never that a
 * paid probe call succeeded (reference §1.9).
 */
export interface ProviderCatalog {
  /** Every kind, in auto-selection order (`providerNames`). */
  readonly names: readonly ProviderName[];
  isConfigured(name: ProviderName): boolean;
  /** The variables still to set, alternatives joined with " or " (e.g. `HUGGINGFACE_API_KEY or HF_TOKEN`). */
  missingEnv(name: ProviderName): readonly string[];
  /** The model a call gets when it names none: provider env var > registry default > built-in default. */
  defaultModel(name: ProviderName): string;
  /** The deadline of a call that sets no `timeout` (Ollama: 5 min or `OLLAMA_TIMEOUT`); `undefined` for none. */
  defaultTimeoutMs?(name: ProviderName): number | undefined;
  /** Throws `ConfigurationError` naming the missing variable; never makes a network call. */
  createClient(name: ProviderName, modelId?: string): LanguageModelClient;
  /**
   * An embedding client (the provider's default embedding model when none is named), or
   * `undefined` when the provider has no embeddings. Same configuration errors as `createClient`.
   */
  createEmbeddingClient?(name: ProviderName, modelId?: string): EmbeddingClient | undefined;
  /** A moderation client, or `undefined` when the provider has no moderation endpoint. Same configuration errors as `createClient`. */
  createModerationClient?(name: ProviderName, modelId?: string): ModerationClient | undefined;
}
