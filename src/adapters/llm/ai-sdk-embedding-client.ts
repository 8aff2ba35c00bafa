import { embedMany, RetryError, type EmbeddingModel } from 'ai';
import { AIProviderError } from '../../generation/errors/ai-provider-error.js';
import type { EmbeddingCallRequest, EmbeddingCallResult, EmbeddingClient } from '../../generation/embeddings/embedding-client.js';
import type { ProviderName } from '../../generation/provider-name.js';
import { mapProviderError } from './map-provider-error.js';

export interface AiSdkEmbeddingClientOptions {
  readonly provider: ProviderName;
  readonly modelId: string;
  readonly model: EmbeddingModel;
  /** Provider-specific error bodies; `undefined` falls back to `mapProviderError`. */
  readonly mapError?: (error: unknown) => AIProviderError | undefined;
}

/**
 * The `EmbeddingClient` port over one AI SDK embedding model. Retries are off, as for language
 * models: failover between candidates belongs to the domain.
 */
export function createAiSdkEmbeddingClient(options: AiSdkEmbeddingClientOptions): EmbeddingClient {
  const { provider, modelId, model } = options;
  return {
    provider,
    modelId,
    async embed(request: EmbeddingCallRequest): Promise<EmbeddingCallResult> {
      try {
        const result = await embedMany({
          model,
          values: [...request.values],
          maxRetries: 0,
          ...(request.dimensions !== undefined ? { dimensions: request.dimensions } : {}),
          ...(request.abortSignal !== undefined ? { abortSignal: request.abortSignal } : {}),
        });
        return { embeddings: result.embeddings, inputTokens: result.usage.tokens ?? 0 };
      } catch (error) {
        if (error instanceof AIProviderError) throw error;
        const cause = RetryError.isInstance(error) ? error.lastError : error;
        throw options.mapError?.(cause) ?? mapProviderError(provider, cause);
      }
    },
  };
}
