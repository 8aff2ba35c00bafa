import type { ProviderName } from '../provider-name.js';

/** One embedding call, already validated by the domain. */
export interface EmbeddingCallRequest {
  /** The texts to embed, in order; the answer has one vector per text. */
  readonly values: readonly string[];
  /** Output size for models that can shorten their vectors (OpenAI text-embedding-3, Gemini). */
  readonly dimensions?: number;
  readonly abortSignal?: AbortSignal;
}

export interface EmbeddingCallResult {
  /** One vector per input value, in input order. */
  readonly embeddings: readonly (readonly number[])[];
  /** Tokens the provider counted for the inputs (0 when it reports none). */
  readonly inputTokens: number;
}

/**
 * The port between the generation domain and one embedding model of one provider. Adapters in
 * `src/adapters/llm/` implement it over the AI SDK; a provider without embeddings has none.
 */
export interface EmbeddingClient {
  readonly provider: ProviderName;
  readonly modelId: string;
  embed(request: EmbeddingCallRequest): Promise<EmbeddingCallResult>;
}
