import { normalizeProviderName } from '../provider-name.js';
import {
  normalizeCapability,
  toolSupportGrade,
  toolSupportGrades,
  type ModelConfig,
  type ModelMetadata,
  type ModelPricing,
  type ToolSupport,
} from './model-config.js';

/** The registry file is malformed; the message names the model, alias or field at fault. */
export class ModelRegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelRegistryError';
  }
}

export interface ParsedModelRegistry {
  readonly version: string | undefined;
  readonly models: readonly ModelConfig[];
  /** Lower-cased alias → model (top-level aliases and per-model aliases). */
  readonly aliases: ReadonlyMap<string, ModelConfig>;
  /** Canonical provider → its default model. */
  readonly defaults: ReadonlyMap<string, ModelConfig>;
  /**
   * `embeddings`: embedding models' prices by `provider/id` (USD per 1K input tokens; they produce
   * none). Kept apart from `models` so no listing, ranking or default ever offers one for generation.
   */
  readonly embeddingPricing: ReadonlyMap<string, ModelPricing>;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `google` → `google-ai` etc.; an unknown provider keeps its lower-cased spelling (custom deployments). */
export function canonicalProvider(name: string): string {
  const normalized = normalizeProviderName(name);
  return normalized === undefined || normalized === 'auto' ? name.trim().toLowerCase() : normalized;
}

function optionalString(raw: Json, field: string, where: string): string | undefined {
  const value = raw[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ModelRegistryError(`${where}: ${field} must be a string`);
  return value;
}

const cachePriceFields = ['cacheRead', 'cacheWrite', 'cacheWrite1h'] as const;

/** `{input, output}` plus the optional prompt-cache prices, every one a non-negative number (USD per 1K tokens). */
function readPricing(p: unknown, where: string): ModelPricing {
  if (!isObject(p) || typeof p.input !== 'number' || typeof p.output !== 'number' || !(p.input >= 0) || !(p.output >= 0)) {
    throw new ModelRegistryError(`${where}: pricing must be {input, output} non-negative numbers (USD per 1K tokens)`);
  }
  let pricing: ModelPricing = { input: p.input, output: p.output };
  for (const field of cachePriceFields) {
    const value = p[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !(value >= 0))
      throw new ModelRegistryError(`${where}: pricing.${field} must be a non-negative number (USD per 1K tokens)`);
    pricing = { ...pricing, [field]: value };
  }
  return pricing;
}

function readModel(raw: unknown, provider: string, key: string, where: string): ModelConfig {
  if (!isObject(raw)) throw new ModelRegistryError(`${where} must be an object`);
  const id = raw.id ?? key;
  if (typeof id !== 'string' || id.length === 0) throw new ModelRegistryError(`${where}: id must be a non-empty string`);
  const pricing = raw.pricing === undefined || raw.pricing === null ? undefined : readPricing(raw.pricing, where);
  const capabilities = raw.capabilities ?? [];
  if (!Array.isArray(capabilities) || capabilities.some((c) => typeof c !== 'string'))
    throw new ModelRegistryError(`${where}: capabilities must be a list of strings`);
  const contextWindow = raw.contextWindow;
  if (contextWindow !== undefined && (typeof contextWindow !== 'number' || !Number.isInteger(contextWindow) || contextWindow <= 0)) {
    throw new ModelRegistryError(`${where}: contextWindow must be a positive integer`);
  }
  const maxOutputTokens = raw.maxOutputTokens;
  if (maxOutputTokens !== undefined && (typeof maxOutputTokens !== 'number' || !Number.isInteger(maxOutputTokens) || maxOutputTokens <= 0)) {
    throw new ModelRegistryError(`${where}: maxOutputTokens must be a positive integer`);
  }
  if (raw.deprecated !== undefined && typeof raw.deprecated !== 'boolean') throw new ModelRegistryError(`${where}: deprecated must be a boolean`);
  const aliases = raw.aliases ?? [];
  if (!Array.isArray(aliases) || aliases.some((a) => typeof a !== 'string' || a.length === 0))
    throw new ModelRegistryError(`${where}: aliases must be a list of strings`);
  const meta = raw.metadata ?? {};
  if (!isObject(meta)) throw new ModelRegistryError(`${where}: metadata must be an object`);
  const metadata: ModelMetadata = {
    description: optionalString(meta, 'description', where),
    useCase: optionalString(meta, 'useCase', where),
    speed: optionalString(meta, 'speed', where)?.toLowerCase(),
    quality: optionalString(meta, 'quality', where)?.toLowerCase(),
  };
  const toolSupport = raw.toolSupport;
  if (toolSupport !== undefined && !(toolSupportGrades as readonly unknown[]).includes(toolSupport))
    throw new ModelRegistryError(`${where}: toolSupport must be one of ${toolSupportGrades.join(', ')}`);
  const normalizedCapabilities = [...new Set((capabilities as string[]).map(normalizeCapability))];
  return {
    id,
    key,
    name: optionalString(raw, 'displayName', where) ?? optionalString(raw, 'name', where) ?? id,
    provider,
    pricing,
    capabilities: normalizedCapabilities,
    contextWindow: contextWindow as number | undefined,
    maxOutputTokens: maxOutputTokens as number | undefined,
    deprecated: raw.deprecated === true,
    aliases: aliases as string[],
    releaseDate: optionalString(raw, 'releaseDate', where),
    metadata,
    toolSupport: (toolSupport as ToolSupport | undefined) ?? toolSupportGrade(provider, normalizedCapabilities),
  };
}

function readModels(models: unknown): ModelConfig[] {
  if (Array.isArray(models)) {
    // Documented layout: a flat list, each entry naming its provider.
    return models.map((raw, index) => {
      if (!isObject(raw) || typeof raw.provider !== 'string' || typeof raw.id !== 'string')
        throw new ModelRegistryError(`models[${index}] needs string id and provider`);
      return readModel(raw, canonicalProvider(raw.provider), raw.id, `models[${index}] (${raw.id})`);
    });
  }
  if (isObject(models)) {
    // Real NeuroLink layout: models keyed by provider, then by model key.
    return Object.entries(models).flatMap(([provider, byKey]) => {
      if (!isObject(byKey)) throw new ModelRegistryError(`models.${provider} must be an object of models keyed by name`);
      return Object.entries(byKey).map(([key, raw]) => readModel(raw, canonicalProvider(provider), key, `models.${provider}.${key}`));
    });
  }
  throw new ModelRegistryError('models must be an object keyed by provider or a list of models');
}

/** `embeddings: { <provider>: { <model id>: { pricing: { input } } } }` (absent: none priced). */
function readEmbeddingPricing(raw: unknown): Map<string, ModelPricing> {
  const prices = new Map<string, ModelPricing>();
  if (raw === undefined || raw === null) return prices;
  if (!isObject(raw)) throw new ModelRegistryError('embeddings must be an object keyed by provider');
  for (const [provider, byId] of Object.entries(raw)) {
    if (!isObject(byId)) throw new ModelRegistryError(`embeddings.${provider} must be an object of models keyed by id`);
    for (const [id, model] of Object.entries(byId)) {
      const where = `embeddings.${provider}.${id}`;
      const pricing = isObject(model) ? model.pricing : undefined;
      if (!isObject(pricing) || typeof pricing.input !== 'number' || !(pricing.input >= 0))
        throw new ModelRegistryError(`${where}: pricing must be {input} a non-negative number (USD per 1K tokens)`);
      prices.set(`${canonicalProvider(provider)}/${id}`, { input: pricing.input, output: 0 });
    }
  }
  return prices;
}

/** Finds the model an alias target or a default names: `provider/key`, `provider/id`, or a unique key or id. */
function findTarget(models: readonly ModelConfig[], target: string, provider?: string): ModelConfig[] {
  const slash = target.indexOf('/');
  if (provider === undefined && slash > 0) {
    const scoped = findTarget(models, target.slice(slash + 1), canonicalProvider(target.slice(0, slash)));
    if (scoped.length > 0) return scoped;
  }
  const pool = provider === undefined ? models : models.filter((m) => m.provider === provider);
  const byKey = pool.filter((m) => m.key === target);
  return byKey.length > 0 ? byKey : pool.filter((m) => m.id === target);
}

/**
 * Validates and normalises a registry document of either layout. Refused at load, naming the
 * culprit: duplicate models, an alias that points at no model (or at several), one alias claimed
 * by two models, and a default naming an unknown model.
 */
export function parseModelRegistry(document: unknown): ParsedModelRegistry {
  if (!isObject(document)) throw new ModelRegistryError('the model registry must be a JSON object');
  const models = readModels(document.models);
  const seen = new Set<string>();
  for (const model of models) {
    const identity = `${model.provider}/${model.key}`;
    if (seen.has(identity)) throw new ModelRegistryError(`model "${identity}" is declared twice`);
    seen.add(identity);
  }

  const aliases = new Map<string, ModelConfig>();
  const extra = new Map<ModelConfig, string[]>();
  const claim = (alias: string, model: ModelConfig, origin: string): void => {
    const lower = alias.toLowerCase();
    const previous = aliases.get(lower);
    if (previous !== undefined && previous !== model) {
      throw new ModelRegistryError(`alias "${alias}" is claimed by both ${previous.provider}/${previous.key} and ${model.provider}/${model.key} (${origin})`);
    }
    aliases.set(lower, model);
    if (!model.aliases.some((a) => a.toLowerCase() === lower)) extra.set(model, [...(extra.get(model) ?? []), alias]);
  };
  for (const model of models) for (const alias of model.aliases) claim(alias, model, 'model aliases');

  const topLevel = document.aliases ?? {};
  if (!isObject(topLevel)) throw new ModelRegistryError('aliases must be an object of alias → model');
  for (const [alias, target] of Object.entries(topLevel)) {
    if (typeof target !== 'string') throw new ModelRegistryError(`alias "${alias}" must name a model`);
    const found = findTarget(models, target);
    if (found.length === 0) throw new ModelRegistryError(`alias "${alias}" points at unknown model "${target}"`);
    if (found.length > 1)
      throw new ModelRegistryError(`alias "${alias}" target "${target}" is ambiguous (${found.map((m) => m.provider).join(', ')}); write it as provider/model`);
    claim(alias, found[0] as ModelConfig, 'top-level aliases');
  }

  const defaults = new Map<string, ModelConfig>();
  const rawDefaults = document.defaults ?? {};
  if (!isObject(rawDefaults)) throw new ModelRegistryError('defaults must be an object of provider → model');
  for (const [provider, target] of Object.entries(rawDefaults)) {
    if (typeof target !== 'string') throw new ModelRegistryError(`default for "${provider}" must name a model`);
    const canonical = canonicalProvider(provider);
    const found = findTarget(models, target, canonical);
    if (found.length !== 1) throw new ModelRegistryError(`default for "${provider}" points at unknown model "${target}"`);
    defaults.set(canonical, found[0] as ModelConfig);
  }

  const withAliases = models.map((model) => {
    const added = extra.get(model);
    return added === undefined ? model : { ...model, aliases: [...model.aliases, ...added] };
  });
  const replace = new Map(models.map((model, index) => [model, withAliases[index] as ModelConfig]));
  const remap = (map: Map<string, ModelConfig>) => new Map([...map].map(([k, m]) => [k, replace.get(m) as ModelConfig]));
  return {
    version: typeof document.version === 'string' ? document.version : undefined,
    models: withAliases.map((m) => Object.freeze(m)),
    aliases: remap(aliases),
    defaults: remap(defaults),
    embeddingPricing: readEmbeddingPricing(document.embeddings),
  };
}
