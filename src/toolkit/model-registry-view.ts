import type { DynamicModelOptions } from '../generation/models/model-config.js';

export type { DynamicModelOptions } from '../generation/models/model-config.js';

/**
 * What the toolkit needs from the dynamic model registry: prices, per-provider defaults and
 * `findBestModel`. `DynamicModelRegistry` satisfies it; tests pass a small literal.
 */
export interface ModelRegistryView {
  getModelConfig(
    id: string,
  ): { readonly pricing?: { readonly input: number; readonly output: number } | undefined; readonly maxOutputTokens?: number | undefined } | undefined;
  getDefaultModel(provider: string): { readonly id: string } | undefined;
  findBestModel(options: DynamicModelOptions): { readonly modelId: string; readonly provider: string } | undefined;
  /**
   * An embedding model's price (USD per 1K input tokens), so embedding calls are costed at it rather
   * than at the provider's chat default. Optional: a view written before embeddings were priced still
   * satisfies the interface.
   */
  getEmbeddingPricing?(model: string): { readonly input: number; readonly output: number } | undefined;
}
