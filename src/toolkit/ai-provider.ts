import type { ChainLink } from '../generation/fallback-chain.js';
import type { GenerateOptions, StreamOptions } from '../generation/generate-options.js';
import type { GenerateResult, StreamResult } from '../generation/generate-result.js';
import type { GenerationCalls } from '../generation/memory/conversation-memory.js';
import type { ProviderName } from '../generation/provider-name.js';

/** One provider (and optionally one model) ready to call; what the factories return. */
export interface AIProvider {
  readonly provider: ProviderName;
  /** The model asked for; `undefined` means the provider's default (see `GenerateResult.model`). */
  readonly model: string | undefined;
  generate(options: GenerateOptions | string): Promise<GenerateResult>;
  /** Alias of `generate`. */
  gen(options: GenerateOptions | string): Promise<GenerateResult>;
  stream(options: StreamOptions | string): Promise<StreamResult>;
}

/** An `AIProvider` pinned to one provider: its calls never fall back to another one. */
export function bindProvider(service: GenerationCalls, provider: ProviderName, model: string | undefined): AIProvider {
  const link: ChainLink = model === undefined ? { provider } : { provider, model };
  const generate = (options: GenerateOptions | string): Promise<GenerateResult> => service.generate(options, link);
  return { provider, model, generate, gen: generate, stream: (options) => service.stream(options, link) };
}
