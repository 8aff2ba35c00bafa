import type { DynamicModelOptions } from '../generation/models/model-config.js';

export type { DynamicModelOptions } from '../generation/models/model-config.js';

/**
 * What the toolkit needs from the dynamic model registry: prices, per-provider defaults and
 * `findBestModel`. `DynamicModelRegistry` satisfies it; tests pass a small literal.
 */
export interface ModelRegistryView {
  getModelConfig(id: string): { readonly pricing?: { readonly input: number; readonly output: number } | undefined } | undefined;
  getDefaultModel(provider: string): { readonly id: string } | undefined;
  findBestModel(options: DynamicModelOptions): { readonly modelId: string; readonly provider: string } | undefined;
}
