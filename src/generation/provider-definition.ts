import type { EmbeddingClient } from './embeddings/embedding-client.js';
import type { LanguageModelClient } from './language-model-client.js';
import type { ModerationClient } from './moderation/moderation-client.js';
import type { ProviderName } from './provider-name.js';

/** Environment variables as read by src/config (process env merged with the working directory's `.env`). */
export type ProviderEnv = Readonly<Record<string, string | undefined>>;

/** Test seams: a local fake speaking the provider's wire format is reached through these. */
export interface ProviderOverrides {
  readonly fetch?: typeof globalThis.fetch;
}

/**
 * One provider kind: which variables configure it and how a client is made from them. One file
 * per kind in this folder (`openai-provider.ts`, …) exports one of these; `provider-registry.ts`
 * lists them all.
 */
export interface ProviderDefinition {
  readonly name: ProviderName;
  /**
   * Variables that must be set for this provider to count as configured. Each entry is a list of
   * alternatives (any one set satisfies it), e.g. `[['HUGGINGFACE_API_KEY', 'HF_TOKEN']]`.
   */
  readonly requiredEnv: readonly (readonly string[])[];
  /** Variables that name the model (`OPENAI_MODEL`, …), first set wins. */
  readonly modelEnv: readonly string[];
  /** Used when neither the call, the model env nor the registry name a model. */
  readonly defaultModel: string;
  /**
   * The deadline of a call that sets no `timeout` (e.g. Ollama's 5 minutes, `OLLAMA_TIMEOUT`);
   * absent or `undefined`: no deadline beyond the caller's. Throws `ConfigurationError` naming a
   * malformed variable.
   */
  readonly defaultTimeoutMs?: (env: ProviderEnv) => number | undefined;
  /**
   * Makes a client. Throws `ConfigurationError` naming the missing variable when `requiredEnv`
   * is not satisfied. Never makes a network call.
   */
  create(env: ProviderEnv, modelId: string, overrides?: ProviderOverrides): LanguageModelClient;
  /** Absent: the provider has no embedding models (`/v1/embeddings` answers 400 for it). */
  readonly embeddings?: EmbeddingDefinition;
  /** Absent: the provider has no moderation endpoint (the moderation guard names OpenAI's). */
  readonly moderation?: ModerationDefinition;
}

/** How a provider makes embedding clients. */
export interface EmbeddingDefinition {
  /** Used when a call names no model of this provider. */
  readonly defaultModel: string;
  /** Same configuration rules as `create`: throws `ConfigurationError`, never makes a network call. */
  create(env: ProviderEnv, modelId: string, overrides?: ProviderOverrides): EmbeddingClient;
}

/** How a provider makes moderation clients (absent on a provider without a moderation endpoint). */
export interface ModerationDefinition {
  readonly defaultModel: string;
  /** Same configuration rules as `create`: throws `ConfigurationError`, never makes a network call. */
  create(env: ProviderEnv, modelId: string, overrides?: ProviderOverrides): ModerationClient;
}
