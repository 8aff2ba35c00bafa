import { ConfigurationError } from '../../generation/errors/provider-errors.js';
import { normalizeProviderName } from '../../generation/provider-name.js';
import type { AIProvider } from '../../toolkit/ai-provider.js';
import type { DynamicModelOptions, ModelRegistryView } from '../../toolkit/model-registry-view.js';
import type { NeuroLink } from '../../toolkit/neurolink.js';
import { DefaultNeuroLink } from './default-neurolink.js';

/**
 * The toolkit the module-level factories use: created on first use (reading `.env` in the working
 * directory then), shared for the process. Pass your own `NeuroLink` to `new AIProviderFactory(…)`
 * for anything else.
 */
let shared: NeuroLink | undefined;
function sharedToolkit(): NeuroLink {
  shared ??= new DefaultNeuroLink();
  return shared;
}

/** The options-object form of `createProvider`: the registry's `findBestModel` picks the model. */
export interface ProviderRequest extends DynamicModelOptions {
  readonly provider?: string;
  readonly model?: string;
}

/**
 * Makes providers. `createProvider(name, model?)` and the options form
 * `createProvider({ provider, model, capability, optimizeFor, maxPrice })` both exist as static and
 * instance methods; every form fails at once with `ConfigurationError` naming the variable when the
 * provider is not configured.
 */
export class AIProviderFactory {
  constructor(
    private readonly toolkit: NeuroLink = sharedToolkit(),
    private readonly registry?: ModelRegistryView,
  ) {}

  static createProvider(nameOrRequest: string | ProviderRequest, model?: string): AIProvider {
    return new AIProviderFactory().createProvider(nameOrRequest, model);
  }

  static createBestProvider(requested?: string, model?: string): AIProvider {
    return new AIProviderFactory().createBestProvider(requested, model);
  }

  static createProviderWithFallback(primary: string, fallback: string, model?: string): { primary: AIProvider; fallback: AIProvider } {
    return new AIProviderFactory().createProviderWithFallback(primary, fallback, model);
  }

  createProvider(nameOrRequest: string | ProviderRequest, model?: string): AIProvider {
    if (typeof nameOrRequest === 'string') return this.toolkit.createProvider(nameOrRequest, model);
    const request = nameOrRequest;
    if (request.model !== undefined || (request.capability === undefined && request.optimizeFor === undefined && request.maxPrice === undefined)) {
      return this.toolkit.createProvider(request.provider ?? 'auto', request.model);
    }
    const registry = this.registry ?? this.toolkit.modelRegistry;
    if (registry === undefined) throw new ConfigurationError('no model registry is loaded (config/models.json) to pick a model by capability', 'toolkit');
    const wanted = request.provider === undefined || request.provider === 'auto' ? undefined : this.toolkit.getProviderSelection(request.provider).provider;
    const best = registry.findBestModel({ ...request, ...(wanted !== undefined ? { provider: wanted } : {}) });
    if (best === undefined) throw new ConfigurationError(`no model in the registry matches ${JSON.stringify(request)}`, wanted ?? 'toolkit');
    return this.toolkit.createProvider(best.provider, best.modelId);
  }

  createBestProvider(requested?: string, model?: string): AIProvider {
    return this.toolkit.createProvider(requested ?? 'auto', model);
  }

  /** Both providers, eagerly checked. Calls on either never fall back on their own; `NeuroLink.generate` without `provider` does. */
  createProviderWithFallback(primary: string, fallback: string, model?: string): { primary: AIProvider; fallback: AIProvider } {
    return { primary: this.toolkit.createProvider(primary, model), fallback: this.toolkit.createProvider(fallback, model) };
  }
}

/** The best configured provider (`DEFAULT_PROVIDER`, else the auto order), or the one requested. */
export function createBestAIProvider(requestedProvider?: string, modelName?: string): AIProvider {
  return new AIProviderFactory().createBestProvider(requestedProvider, modelName);
}

/** A provider by name (`auto` by default). */
export function createAIProvider(providerName = 'auto', modelName?: string): AIProvider {
  return new AIProviderFactory().createProvider(providerName, modelName);
}

/** `{ primary, fallback }` providers, as documented. */
export function createAIProviderWithFallback(primary: string, fallback: string, modelName?: string): { primary: AIProvider; fallback: AIProvider } {
  return new AIProviderFactory().createProviderWithFallback(primary, fallback, modelName);
}

/** The provider a call without `provider` would use (offline, deterministic). */
export async function getBestProvider(requestedProvider?: string): Promise<string> {
  return sharedToolkit().getBestProvider(requestedProvider);
}

/** Provider kinds whose required variables are set. */
export async function getAvailableProviders(): Promise<string[]> {
  return sharedToolkit().getAvailableProviders();
}

/** Whether `name` is a provider kind or one of its aliases. */
export function isValidProvider(name: string): boolean {
  const normalized = normalizeProviderName(name);
  return normalized !== undefined && normalized !== 'auto';
}
