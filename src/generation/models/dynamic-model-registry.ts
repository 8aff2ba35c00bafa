import { basename, dirname, join } from 'node:path';
import type { FileSystem } from '../../ports/file-system.js';
import shippedRegistry from '../../../schemas/models.json' with { type: 'json' };
import {
  averagePrice,
  normalizeCapability,
  type DynamicModelOptions,
  type ModelConfig,
  type ModelPricing,
  type ModelResolutionResult,
  type ModelSearchOptions,
} from './model-config.js';
import { canonicalProvider, ModelRegistryError, parseModelRegistry, type ParsedModelRegistry } from './parse-model-registry.js';

const speedRank: Readonly<Record<string, number>> = { fastest: 4, fast: 3, medium: 2, slow: 1 };
const qualityRank: Readonly<Record<string, number>> = { highest: 4, high: 3, medium: 2, low: 1 };

/**
 * The deterministic order behind every ranking, applied after the ranking's own key: lower
 * average price first (unpriced models last), then provider name, then model id, both in code
 * point order. Two registries with the same models therefore always give the same answer.
 */
function byPriceThenName(a: ModelConfig, b: ModelConfig): number {
  const pa = averagePrice(a) ?? Number.POSITIVE_INFINITY;
  const pb = averagePrice(b) ?? Number.POSITIVE_INFINITY;
  if (pa !== pb) return pa < pb ? -1 : 1;
  if (a.provider !== b.provider) return a.provider < b.provider ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function byRank(ranks: Readonly<Record<string, number>>, field: 'speed' | 'quality') {
  return (a: ModelConfig, b: ModelConfig): number => {
    const diff = (ranks[b.metadata[field] ?? ''] ?? 0) - (ranks[a.metadata[field] ?? ''] ?? 0);
    return diff !== 0 ? diff : byPriceThenName(a, b);
  };
}

function withinPrice(model: ModelConfig, maxPrice: number | undefined): boolean {
  if (maxPrice === undefined) return true;
  const price = averagePrice(model);
  return price !== undefined && price <= maxPrice;
}

/**
 * The model catalogue (models.json) in memory. Sources are local only (a file or a JSON value;
 * never the network). Lookups are synchronous. Rules:
 * - names resolve in this order: alias (case-insensitive) → `provider/key` or `provider/id` →
 *   key → id; when a bare key or id exists under several providers the first in file order wins
 *   unless `provider` is given;
 * - `maxPrice` bounds the average of input and output price per 1K tokens; unpriced models fail it;
 * - rankings: cost = average price ascending; speed = metadata.speed (fastest > fast > medium >
 *   slow) then price; quality = metadata.quality (highest > high > medium > low) then price; ties
 *   always end with provider then id (see byPriceThenName).
 */
export class DynamicModelRegistry {
  private data: ParsedModelRegistry;
  private readonly source: { readonly path: string; readonly fileSystem: FileSystem } | undefined;

  private constructor(data: ParsedModelRegistry, source?: { path: string; fileSystem: FileSystem }) {
    this.data = data;
    this.source = source;
  }

  static fromJson(json: unknown): DynamicModelRegistry {
    return new DynamicModelRegistry(parseModelRegistry(json));
  }

  /** Reads the registry at `path` through `fileSystem`, which `reload` and `watch` use again. */
  static fromFile(path: string, fileSystem: FileSystem): DynamicModelRegistry {
    return new DynamicModelRegistry(readRegistryFile(path, fileSystem), { path, fileSystem });
  }

  /** The registry shipped with Switchyard (schemas/models.json). */
  static shipped(): DynamicModelRegistry {
    return DynamicModelRegistry.fromJson(shippedRegistry);
  }

  get version(): string | undefined {
    return this.data.version;
  }

  /** Re-reads the file this registry came from. A broken file throws and the previous contents stay in use. */
  reload(): void {
    if (this.source === undefined) throw new ModelRegistryError('this registry was not loaded from a file; nothing to reload');
    this.data = readRegistryFile(this.source.path, this.source.fileSystem);
  }

  /**
   * Reloads whenever the file changes; returns a function that stops watching. The directory is
   * watched, not the file, so a file replaced by rename (what editors do) keeps being followed.
   * `onReload` gets undefined after a successful reload, or the error of a failed one (the
   * previous contents then stay in use; a half-written file usually fails once, then succeeds).
   */
  watch(onReload: (error: Error | undefined) => void = () => undefined): () => void {
    const source = this.source;
    if (source === undefined) throw new ModelRegistryError('this registry was not loaded from a file; nothing to watch');
    const name = basename(source.path);
    const watcher = source.fileSystem.watchDirectory(
      dirname(source.path),
      (changed) => {
        if (changed !== undefined && changed !== name) return;
        try {
          this.reload();
          onReload(undefined);
        } catch (error) {
          onReload(error instanceof Error ? error : new Error(String(error)));
        }
      },
      (error) => onReload(error),
    );
    return () => watcher.close();
  }

  getAllModels(): ModelConfig[] {
    return [...this.data.models];
  }

  /**
   * An embedding model's price (`embeddings` of the file; output 0), by `provider/id`, or by id
   * under `provider` or, without one, under the first provider that lists it.
   */
  getEmbeddingPricing(model: string, provider?: string): ModelPricing | undefined {
    const prices = this.data.embeddingPricing;
    const slash = model.indexOf('/');
    if (provider === undefined && slash > 0) {
      const scoped = prices.get(`${canonicalProvider(model.slice(0, slash))}/${model.slice(slash + 1)}`);
      if (scoped !== undefined) return scoped;
    }
    if (provider !== undefined) return prices.get(`${canonicalProvider(provider)}/${model}`);
    for (const [key, price] of prices) if (key.slice(key.indexOf('/') + 1) === model) return price;
    return undefined;
  }

  /** The model a name designates (see the class comment for the order), or undefined. */
  getModelConfig(nameOrId: string, provider?: string): ModelConfig | undefined {
    if (typeof nameOrId !== 'string' || nameOrId.trim() === '') return undefined;
    const name = nameOrId.trim();
    const wanted = provider === undefined ? undefined : canonicalProvider(provider);
    const inProvider = (m: ModelConfig | undefined) => (m !== undefined && (wanted === undefined || m.provider === wanted) ? m : undefined);
    const aliased = inProvider(this.data.aliases.get(name.toLowerCase()));
    if (aliased !== undefined) return aliased;
    const models = wanted === undefined ? this.data.models : this.data.models.filter((m) => m.provider === wanted);
    const slash = name.indexOf('/');
    if (slash > 0) {
      const scope = canonicalProvider(name.slice(0, slash));
      const rest = name.slice(slash + 1);
      const scoped = models.find((m) => m.provider === scope && (m.key === rest || m.id === rest));
      if (scoped !== undefined) return scoped;
    }
    return models.find((m) => m.key === name) ?? models.find((m) => m.id === name);
  }

  /**
   * The most tokens the model a name designates may produce in one answer (`maxOutputTokens` of the
   * registry), or undefined when the name is unknown or the registry has no figure for it. What a
   * wire that requires an output limit (Anthropic's `max_tokens`) is sent when the client named none:
   * the model's own maximum, never a small fixed default that would cut long answers.
   */
  maxOutputTokensOf(nameOrId: string, provider?: string): number | undefined {
    return this.getModelConfig(nameOrId, provider)?.maxOutputTokens;
  }

  /** `{modelId, provider, reasoning, pricing, capabilities}` for a name, or undefined when it names nothing. */
  resolveModel(aliasOrId: string, provider?: string): ModelResolutionResult | undefined {
    const model = this.getModelConfig(aliasOrId, provider);
    if (model === undefined) return undefined;
    const how = this.data.aliases.get(aliasOrId.trim().toLowerCase()) === model ? `alias "${aliasOrId}"` : `name "${aliasOrId}"`;
    return toResult(model, `${how} resolves to ${model.provider}/${model.key}${model.deprecated ? ' (deprecated)' : ''}`);
  }

  /** Models having the capability (any spelling: `function-calling` ≡ `functionCalling`), cheapest first. */
  getModelsByCapability(capability: string): ModelConfig[] {
    return this.searchModels({ capability });
  }

  /** Filters, then sorts cheapest first (ties: provider, id). `excludeDeprecated` defaults to false. */
  searchModels(options: ModelSearchOptions = {}): ModelConfig[] {
    const capability = options.capability === undefined ? undefined : normalizeCapability(options.capability);
    const provider = options.provider === undefined ? undefined : canonicalProvider(options.provider);
    return this.data.models
      .filter((m) => capability === undefined || m.capabilities.includes(capability))
      .filter((m) => provider === undefined || m.provider === provider)
      .filter((m) => withinPrice(m, options.maxPrice))
      .filter((m) => options.minContextWindow === undefined || (m.contextWindow ?? 0) >= options.minContextWindow)
      .filter((m) => options.excludeDeprecated !== true || !m.deprecated)
      .sort(byPriceThenName);
  }

  /**
   * A requested `model` that resolves wins outright. Otherwise the non-deprecated models passing
   * capability, provider and maxPrice are ranked by `optimizeFor` (default quality); undefined when
   * none pass.
   */
  findBestModel(options: DynamicModelOptions = {}): ModelResolutionResult | undefined {
    if (options.model !== undefined) {
      const requested = this.resolveModel(options.model, options.provider);
      if (requested !== undefined) return { ...requested, reasoning: `requested model: ${requested.reasoning}` };
    }
    const optimizeFor = options.optimizeFor ?? 'quality';
    const candidates = this.searchModels({ capability: options.capability, provider: options.provider, maxPrice: options.maxPrice, excludeDeprecated: true });
    const order = optimizeFor === 'cost' ? byPriceThenName : optimizeFor === 'speed' ? byRank(speedRank, 'speed') : byRank(qualityRank, 'quality');
    const best = candidates.sort(order)[0];
    if (best === undefined) return undefined;
    const filters = [
      options.capability === undefined ? undefined : `capability ${normalizeCapability(options.capability)}`,
      options.provider === undefined ? undefined : `provider ${canonicalProvider(options.provider)}`,
      options.maxPrice === undefined ? undefined : `average price <= ${options.maxPrice}/1K`,
      'not deprecated',
    ].filter((part): part is string => part !== undefined);
    const unresolved = options.model === undefined ? '' : `model "${options.model}" is unknown; `;
    return toResult(best, `${unresolved}${candidates.length} model(s) match ${filters.join(', ')}; best for ${optimizeFor}: ${best.provider}/${best.key}`);
  }

  /** Cheapest non-deprecated model whose metadata.useCase matches (all models when none match). */
  getCheapestModel(useCase?: string): ModelConfig | undefined {
    return this.forUseCase(useCase).sort(byPriceThenName)[0];
  }

  /** Fastest non-deprecated model whose metadata.useCase matches (all models when none match); ties by price. */
  getFastestModel(useCase?: string): ModelConfig | undefined {
    return this.forUseCase(useCase).sort(byRank(speedRank, 'speed'))[0];
  }

  /** The `defaults` entry for a provider (any spelling normalizeProviderName accepts). */
  getDefaultModel(provider: string): ModelConfig | undefined {
    return this.data.defaults.get(canonicalProvider(provider));
  }

  private forUseCase(useCase: string | undefined): ModelConfig[] {
    const live = this.data.models.filter((m) => !m.deprecated);
    if (useCase === undefined) return live;
    const wanted = useCase.trim().toLowerCase();
    const matching = live.filter((m) => m.metadata.useCase?.toLowerCase() === wanted);
    return matching.length > 0 ? matching : live;
  }
}

function toResult(model: ModelConfig, reasoning: string): ModelResolutionResult {
  return { modelId: model.id, provider: model.provider, reasoning, pricing: model.pricing, capabilities: model.capabilities };
}

function readRegistryFile(path: string, fileSystem: FileSystem): ParsedModelRegistry {
  let text: string;
  try {
    text = fileSystem.readTextSync(path);
  } catch (error) {
    throw new ModelRegistryError(`cannot read model registry ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ModelRegistryError(`model registry ${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return parseModelRegistry(json);
  } catch (error) {
    if (error instanceof ModelRegistryError) throw new ModelRegistryError(`${path}: ${error.message}`);
    throw error;
  }
}

/** `<cwd>/config/models.json` when it exists (NeuroLink's location), else the shipped registry. */
export function loadDefaultModelRegistry(fileSystem: FileSystem, cwd: string = process.cwd()): DynamicModelRegistry {
  const local = join(cwd, 'config', 'models.json');
  return fileSystem.existsSync(local) ? DynamicModelRegistry.fromFile(local, fileSystem) : DynamicModelRegistry.shipped();
}
