import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeFileSystem } from '../../../../src/adapters/fs/node-file-system.js';
import { DynamicModelRegistry, loadDefaultModelRegistry } from '../../../../src/generation/models/dynamic-model-registry.js';
import { normalizeCapability } from '../../../../src/generation/models/model-config.js';
import { ModelRegistryError } from '../../../../src/generation/models/parse-model-registry.js';
import { providerNames } from '../../../../src/generation/provider-name.js';

/** NeuroLink's real layout: models keyed by provider, kebab-case capabilities, provider/key aliases. */
const nested = {
  version: '2.0.0',
  models: {
    anthropic: {
      'claude-3.5-sonnet': {
        id: 'claude-3-5-sonnet-20241022',
        displayName: 'Claude 3.5 Sonnet',
        capabilities: ['function-calling', 'vision', 'code'],
        deprecated: false,
        pricing: { input: 0.003, output: 0.015 },
        contextWindow: 200000,
        metadata: { description: 'balanced', useCase: 'coding', speed: 'medium', quality: 'high' },
      },
      'claude-3-opus': {
        id: 'claude-3-opus-20240229',
        capabilities: ['function-calling', 'advanced-reasoning'],
        pricing: { input: 0.015, output: 0.075 },
        contextWindow: 200000,
        metadata: { useCase: 'reasoning', speed: 'slow', quality: 'highest' },
      },
    },
    openai: {
      'gpt-4o-mini': {
        id: 'gpt-4o-mini',
        capabilities: ['function-calling', 'vision'],
        pricing: { input: 0.0005, output: 0.0015 },
        contextWindow: 128000,
        metadata: { useCase: 'general', speed: 'fast', quality: 'medium' },
      },
      'gpt-4-turbo': {
        id: 'gpt-4-turbo',
        capabilities: ['function-calling'],
        deprecated: true,
        pricing: { input: 0.0001, output: 0.0001 },
        contextWindow: 128000,
        metadata: { useCase: 'general', speed: 'fastest', quality: 'highest' },
      },
    },
    azure: {
      'gpt-4o-mini': {
        id: 'gpt-4o-mini',
        capabilities: ['function-calling', 'vision'],
        pricing: { input: 0.0005, output: 0.0015 },
        contextWindow: 128000,
        metadata: { useCase: 'general', speed: 'fast', quality: 'medium' },
      },
    },
    google: {
      'gemini-2.5-flash': {
        id: 'gemini-2.5-flash',
        capabilities: ['function-calling', 'vision'],
        pricing: { input: 0.000075, output: 0.0003 },
        contextWindow: 1000000,
        metadata: { useCase: 'general', speed: 'fast', quality: 'medium' },
      },
    },
  },
  aliases: { 'claude-latest': 'anthropic/claude-3.5-sonnet', fastest: 'google/gemini-2.5-flash', 'best-reasoning': 'anthropic/claude-3-opus' },
  defaults: { anthropic: 'claude-3.5-sonnet', openai: 'gpt-4o-mini', google: 'gemini-2.5-flash' },
};

/** The documented layout: a flat list, camelCase capabilities, per-model aliases, id-targeted aliases. */
const flat = {
  models: [
    {
      id: 'claude-3-5-sonnet',
      name: 'Claude 3.5 Sonnet',
      provider: 'anthropic',
      pricing: { input: 0.003, output: 0.015 },
      capabilities: ['functionCalling', 'vision'],
      contextWindow: 200000,
      deprecated: false,
      aliases: ['sonnet'],
      metadata: { speed: 'medium', quality: 'high' },
    },
    {
      id: 'gpt-4o-mini',
      name: 'GPT-4o mini',
      provider: 'openai',
      pricing: { input: 0.00015, output: 0.0006 },
      capabilities: ['functionCalling'],
      contextWindow: 128000,
      deprecated: false,
      aliases: [],
      metadata: { speed: 'fast', quality: 'medium' },
    },
  ],
  aliases: { 'claude-latest': 'claude-3-5-sonnet', fastest: 'gpt-4o-mini' },
};

describe('loading', () => {
  it('reads the nested layout and normalises capabilities and providers', () => {
    const registry = DynamicModelRegistry.fromJson(nested);
    expect(registry.version).toBe('2.0.0');
    expect(registry.getAllModels()).toHaveLength(6);
    const sonnet = registry.getModelConfig('claude-3.5-sonnet');
    expect(sonnet).toMatchObject({
      id: 'claude-3-5-sonnet-20241022',
      key: 'claude-3.5-sonnet',
      name: 'Claude 3.5 Sonnet',
      provider: 'anthropic',
      capabilities: ['functionCalling', 'vision', 'code'],
      pricing: { input: 0.003, output: 0.015 },
      contextWindow: 200000,
      deprecated: false,
    });
    expect(sonnet?.aliases).toEqual(['claude-latest']);
    expect(registry.getModelConfig('gemini-2.5-flash')?.provider).toBe('google-ai');
  });

  it('reads the flat layout with per-model and id aliases', () => {
    const registry = DynamicModelRegistry.fromJson(flat);
    expect(registry.resolveModel('sonnet')?.modelId).toBe('claude-3-5-sonnet');
    expect(registry.resolveModel('claude-latest')?.modelId).toBe('claude-3-5-sonnet');
    expect(registry.getModelConfig('claude-3-5-sonnet')?.aliases).toEqual(['sonnet', 'claude-latest']);
    expect(registry.getModelConfig('claude-3-5-sonnet')?.name).toBe('Claude 3.5 Sonnet');
  });

  it('refuses an alias pointing at an unknown model, naming it (NeuroLink shipped such a dangling alias)', () => {
    const broken = { ...nested, aliases: { ...nested.aliases, cheapest: 'google/gemini-2.0-flash' } };
    expect(() => DynamicModelRegistry.fromJson(broken)).toThrow(ModelRegistryError);
    expect(() => DynamicModelRegistry.fromJson(broken)).toThrow('alias "cheapest" points at unknown model "google/gemini-2.0-flash"');
  });

  it('refuses one alias claimed by two models', () => {
    const twice = { models: [flat.models[0], { ...flat.models[1], aliases: ['SONNET'] }] };
    expect(() => DynamicModelRegistry.fromJson(twice)).toThrow(/alias "SONNET" is claimed by both anthropic\/claude-3-5-sonnet and openai\/gpt-4o-mini/);
    const topLevelConflict = { ...flat, aliases: { sonnet: 'gpt-4o-mini' } };
    expect(() => DynamicModelRegistry.fromJson(topLevelConflict)).toThrow(/alias "sonnet" is claimed by both/);
  });

  it('refuses an ambiguous bare target, an unknown default, duplicates and malformed entries', () => {
    expect(() => DynamicModelRegistry.fromJson({ ...nested, aliases: { mini: 'gpt-4o-mini' } })).toThrow(/alias "mini" target "gpt-4o-mini" is ambiguous/);
    expect(() => DynamicModelRegistry.fromJson({ ...nested, defaults: { mistral: 'mistral-small' } })).toThrow(
      'default for "mistral" points at unknown model "mistral-small"',
    );
    expect(() => DynamicModelRegistry.fromJson({ models: [flat.models[0], flat.models[0]] })).toThrow(/declared twice/);
    expect(() => DynamicModelRegistry.fromJson({ models: [{ ...flat.models[0], pricing: { input: -1, output: 0 } }] })).toThrow(/pricing/);
    expect(() => DynamicModelRegistry.fromJson({ models: 'x' })).toThrow(/models must be/);
    expect(() => DynamicModelRegistry.fromJson({ models: [{ id: 'x' }] })).toThrow(/models\[0\] needs string id and provider/);
  });
});

describe('queries', () => {
  const registry = DynamicModelRegistry.fromJson(nested);

  it('resolveModel: alias, provider/key, key, id; unknown is undefined', () => {
    expect(registry.resolveModel('claude-latest')).toEqual({
      modelId: 'claude-3-5-sonnet-20241022',
      provider: 'anthropic',
      reasoning: 'alias "claude-latest" resolves to anthropic/claude-3.5-sonnet',
      pricing: { input: 0.003, output: 0.015 },
      capabilities: ['functionCalling', 'vision', 'code'],
    });
    expect(registry.resolveModel('CLAUDE-LATEST')?.modelId).toBe('claude-3-5-sonnet-20241022');
    expect(registry.resolveModel('azure/gpt-4o-mini')?.provider).toBe('azure');
    expect(registry.resolveModel('gpt-4o-mini')?.provider).toBe('openai'); // first in file order
    expect(registry.resolveModel('gpt-4o-mini', 'azure')?.provider).toBe('azure');
    expect(registry.resolveModel('claude-3-opus-20240229')?.modelId).toBe('claude-3-opus-20240229');
    expect(registry.resolveModel('nope')).toBeUndefined();
    expect(registry.resolveModel('claude-latest', 'openai')).toBeUndefined();
  });

  it('getModelsByCapability accepts either spelling, cheapest first, ties by provider then id', () => {
    const ids = registry.getModelsByCapability('function-calling').map((m) => `${m.provider}/${m.id}`);
    expect(ids).toEqual([
      'openai/gpt-4-turbo',
      'google-ai/gemini-2.5-flash',
      'azure/gpt-4o-mini',
      'openai/gpt-4o-mini',
      'anthropic/claude-3-5-sonnet-20241022',
      'anthropic/claude-3-opus-20240229',
    ]);
    expect(registry.getModelsByCapability('advancedReasoning').map((m) => m.key)).toEqual(['claude-3-opus']);
    expect(normalizeCapability('json_mode')).toBe('jsonMode');
  });

  it('searchModels filters by provider, average price, context window and deprecation', () => {
    expect(registry.searchModels({ provider: 'google' }).map((m) => m.id)).toEqual(['gemini-2.5-flash']);
    // average of input and output: gpt-4o-mini = 0.001, sonnet = 0.009
    expect(registry.searchModels({ maxPrice: 0.001, excludeDeprecated: true }).map((m) => m.id)).toEqual(['gemini-2.5-flash', 'gpt-4o-mini', 'gpt-4o-mini']);
    expect(registry.searchModels({ maxPrice: 0.000999, excludeDeprecated: true }).map((m) => m.id)).toEqual(['gemini-2.5-flash']);
    expect(registry.searchModels({ minContextWindow: 200000 }).map((m) => m.key)).toEqual(['gemini-2.5-flash', 'claude-3.5-sonnet', 'claude-3-opus']);
    expect(registry.searchModels({ capability: 'vision', provider: 'anthropic' }).map((m) => m.key)).toEqual(['claude-3.5-sonnet']);
    expect(registry.searchModels().some((m) => m.deprecated)).toBe(true);
  });

  it('findBestModel ranks by quality (default), cost and speed, never picking deprecated models', () => {
    expect(registry.findBestModel()?.modelId).toBe('claude-3-opus-20240229');
    expect(registry.findBestModel({ optimizeFor: 'cost' })?.modelId).toBe('gemini-2.5-flash');
    // speed: three "fast" models tie, the cheapest wins, then provider name (azure < openai)
    expect(registry.findBestModel({ optimizeFor: 'speed' })?.modelId).toBe('gemini-2.5-flash');
    expect(registry.findBestModel({ optimizeFor: 'speed', provider: 'openai' })).toMatchObject({ modelId: 'gpt-4o-mini', provider: 'openai' });
    expect(registry.findBestModel({ optimizeFor: 'cost', capability: 'vision', maxPrice: 0.005 })?.reasoning).toBe(
      '3 model(s) match capability vision, average price <= 0.005/1K, not deprecated; best for cost: google-ai/gemini-2.5-flash',
    );
    expect(registry.findBestModel({ capability: 'vision', maxPrice: 0.005 })?.modelId).toBe('gemini-2.5-flash');
    expect(registry.findBestModel({ capability: 'teleportation' })).toBeUndefined();
  });

  it('findBestModel honours a requested model and explains an unknown one', () => {
    expect(registry.findBestModel({ model: 'best-reasoning' })?.reasoning).toBe('requested model: alias "best-reasoning" resolves to anthropic/claude-3-opus');
    expect(registry.findBestModel({ model: 'gpt-9', optimizeFor: 'cost' })?.reasoning).toMatch(/^model "gpt-9" is unknown; /);
  });

  it('ties break by provider then id, independent of file order', () => {
    const same = { pricing: { input: 0.001, output: 0.001 }, capabilities: ['general'], metadata: { speed: 'fast', quality: 'high' } };
    const a = DynamicModelRegistry.fromJson({
      models: [
        { ...same, id: 'm-b', provider: 'openai' },
        { ...same, id: 'm-a', provider: 'openai' },
        { ...same, id: 'z', provider: 'anthropic' },
      ],
    });
    const b = DynamicModelRegistry.fromJson({
      models: [
        { ...same, id: 'z', provider: 'anthropic' },
        { ...same, id: 'm-a', provider: 'openai' },
        { ...same, id: 'm-b', provider: 'openai' },
      ],
    });
    for (const registryUnderTest of [a, b]) {
      expect(registryUnderTest.findBestModel({ optimizeFor: 'cost' })?.modelId).toBe('z');
      expect(registryUnderTest.findBestModel({ provider: 'openai' })?.modelId).toBe('m-a');
      expect(registryUnderTest.getCheapestModel()?.id).toBe('z');
    }
  });

  it('getCheapestModel and getFastestModel restrict to the use case when any model has it', () => {
    expect(registry.getCheapestModel()?.id).toBe('gemini-2.5-flash');
    expect(registry.getCheapestModel('coding')?.key).toBe('claude-3.5-sonnet');
    expect(registry.getCheapestModel('unknown-use')?.id).toBe('gemini-2.5-flash');
    expect(registry.getFastestModel('reasoning')?.key).toBe('claude-3-opus');
    expect(registry.getFastestModel()?.id).toBe('gemini-2.5-flash'); // gpt-4-turbo is "fastest" but deprecated
  });

  it('getDefaultModel accepts provider aliases; getModelConfig returns per-1K pricing', () => {
    expect(registry.getDefaultModel('google')?.id).toBe('gemini-2.5-flash');
    expect(registry.getDefaultModel('google-ai')?.id).toBe('gemini-2.5-flash');
    expect(registry.getDefaultModel('claude')?.key).toBe('claude-3.5-sonnet');
    expect(registry.getDefaultModel('mistral')).toBeUndefined();
    expect(registry.getModelConfig('gpt-4o-mini', 'azure')?.pricing).toEqual({ input: 0.0005, output: 0.0015 });
    expect(registry.getModelConfig('')).toBeUndefined();
  });
});

describe('files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sy-models-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reload picks up a changed file and keeps the old data when the new file is broken', async () => {
    const path = join(dir, 'models.json');
    await writeFile(path, JSON.stringify(flat));
    const registry = DynamicModelRegistry.fromFile(path, nodeFileSystem);
    expect(registry.resolveModel('fastest')?.modelId).toBe('gpt-4o-mini');
    await writeFile(path, JSON.stringify({ ...flat, aliases: { fastest: 'claude-3-5-sonnet' } }));
    registry.reload();
    expect(registry.resolveModel('fastest')?.modelId).toBe('claude-3-5-sonnet');
    await writeFile(path, '{ not json');
    expect(() => registry.reload()).toThrow(/is not valid JSON/);
    expect(registry.resolveModel('fastest')?.modelId).toBe('claude-3-5-sonnet');
    await writeFile(path, JSON.stringify({ ...flat, aliases: { fastest: 'gone' } }));
    expect(() => registry.reload()).toThrow(`${path}: alias "fastest" points at unknown model "gone"`);
    expect(() => DynamicModelRegistry.fromJson(flat).reload()).toThrow(/not loaded from a file/);
    expect(() => DynamicModelRegistry.fromFile(join(dir, 'missing.json'), nodeFileSystem)).toThrow(/ENOENT/);
  });

  it('watch reloads when the file is rewritten', async () => {
    const path = join(dir, 'models.json');
    await writeFile(path, JSON.stringify(flat));
    const registry = DynamicModelRegistry.fromFile(path, nodeFileSystem);
    let stop: () => void = () => undefined;
    const reloaded = new Promise<void>((resolve) => {
      stop = registry.watch((error) => {
        if (error === undefined && registry.resolveModel('fastest')?.modelId === 'claude-3-5-sonnet') resolve();
      });
    });
    await writeFile(path, JSON.stringify({ ...flat, aliases: { fastest: 'claude-3-5-sonnet' } }));
    await reloaded;
    stop();
    expect(() => DynamicModelRegistry.fromJson(flat).watch()).toThrow(/nothing to watch/);
  });

  it('loadDefaultModelRegistry prefers <cwd>/config/models.json, else the shipped registry', async () => {
    expect(loadDefaultModelRegistry(nodeFileSystem, dir).getModelConfig('gpt-4o')?.provider).toBe('openai');
    await mkdir(join(dir, 'config'));
    await writeFile(join(dir, 'config', 'models.json'), JSON.stringify(flat));
    expect(loadDefaultModelRegistry(nodeFileSystem, dir).getAllModels()).toHaveLength(2);
  });
});

describe('the shipped registry', () => {
  const registry = DynamicModelRegistry.shipped();
  it('covers every provider kind with a default model', () => {
    for (const provider of providerNames) {
      expect(registry.getDefaultModel(provider), provider).toBeDefined();
      expect(registry.getDefaultModel(provider)?.provider).toBe(provider);
    }
  });
  it('resolves its aliases and prices per 1K tokens', () => {
    expect(registry.resolveModel('claude-latest')?.modelId).toBe('claude-sonnet-4-20250514');
    expect(registry.resolveModel('fastest')?.provider).toBe('google-ai');
    expect(registry.getModelConfig('gemini-2.5-flash')?.pricing).toEqual({ input: 0.0003, output: 0.0025, cacheRead: 0.00003 });
    for (const model of registry.getAllModels()) {
      expect(model.metadata.description, model.id).toBeTruthy();
      if (model.pricing !== undefined) expect(model.pricing.input, model.id).toBeLessThan(0.1);
    }
  });
});

describe('prompt-cache prices and output limits', () => {
  const priced = {
    models: [
      {
        ...flat.models[0],
        pricing: { input: 0.003, output: 0.015, cacheRead: 0.0003, cacheWrite: 0.00375, cacheWrite1h: 0.006 },
        maxOutputTokens: 64000,
      },
      flat.models[1],
    ],
  };

  it('reads cache-read, cache-write and 1-hour cache-write prices and the maximum output', () => {
    const registry = DynamicModelRegistry.fromJson(priced);
    expect(registry.getModelConfig('claude-3-5-sonnet')?.pricing).toEqual({
      input: 0.003,
      output: 0.015,
      cacheRead: 0.0003,
      cacheWrite: 0.00375,
      cacheWrite1h: 0.006,
    });
    expect(registry.maxOutputTokensOf('sonnet')).toBe(64000);
    expect(registry.maxOutputTokensOf('claude-3-5-sonnet', 'anthropic')).toBe(64000);
    // Known model without a figure, a model of another provider, an unknown name: no limit known.
    expect(registry.maxOutputTokensOf('gpt-4o-mini')).toBeUndefined();
    expect(registry.maxOutputTokensOf('claude-3-5-sonnet', 'openai')).toBeUndefined();
    expect(registry.maxOutputTokensOf('no-such-model')).toBeUndefined();
  });

  it('refuses a negative or non-numeric cache price and a non-positive maximum output, naming the field', () => {
    const withPricing = (pricing: object) => ({ models: [{ ...flat.models[0], pricing }] });
    expect(() => DynamicModelRegistry.fromJson(withPricing({ input: 0.003, output: 0.015, cacheRead: -0.1 }))).toThrow(
      /pricing\.cacheRead must be a non-negative number/,
    );
    expect(() => DynamicModelRegistry.fromJson(withPricing({ input: 0.003, output: 0.015, cacheWrite1h: '0.006' }))).toThrow(/pricing\.cacheWrite1h/);
    expect(() => DynamicModelRegistry.fromJson({ models: [{ ...flat.models[0], maxOutputTokens: 0 }] })).toThrow(/maxOutputTokens must be a positive integer/);
    expect(() => DynamicModelRegistry.fromJson({ models: [{ ...flat.models[0], maxOutputTokens: 10.5 }] })).toThrow(/maxOutputTokens/);
  });

  it("the shipped registry prices Claude's cache as Anthropic does (write 1.25×, 1-hour write 2×, read 0.1× of input), on Anthropic and Bedrock", () => {
    const registry = DynamicModelRegistry.shipped();
    const claudes = registry.getAllModels().filter((model) => model.id.includes('claude'));
    expect(claudes.map((model) => model.provider).sort()).toEqual(['anthropic', 'anthropic', 'anthropic', 'anthropic', 'bedrock', 'bedrock']);
    for (const { id, pricing } of claudes) {
      const input = pricing?.input ?? Number.NaN;
      expect(pricing?.cacheWrite, id).toBeCloseTo(input * 1.25, 12);
      expect(pricing?.cacheWrite1h, id).toBeCloseTo(input * 2, 12);
      expect(pricing?.cacheRead, id).toBeCloseTo(input * 0.1, 12);
    }
  });

  it("the shipped registry gives OpenAI's published cached-input prices with no write premium", () => {
    const registry = DynamicModelRegistry.shipped();
    expect(registry.getModelConfig('gpt-4o', 'openai')?.pricing).toEqual({ input: 0.0025, output: 0.01, cacheRead: 0.00125 });
    expect(registry.getModelConfig('gpt-4.1', 'openai')?.pricing).toEqual({ input: 0.002, output: 0.008, cacheRead: 0.0005 });
    expect(registry.getModelConfig('o3-mini', 'openai')?.pricing).toEqual({ input: 0.0011, output: 0.0044, cacheRead: 0.00055 });
    for (const model of registry.getAllModels()) {
      const pricing = model.pricing;
      if (pricing?.cacheRead === undefined) continue;
      // A cached token never costs more than a fresh one.
      expect(pricing.cacheRead, `${model.provider}/${model.key}`).toBeLessThan(pricing.input);
    }
  });

  it('the shipped registry knows the maximum output of the Claude and GPT models', () => {
    const registry = DynamicModelRegistry.shipped();
    expect(registry.maxOutputTokensOf('claude-sonnet-4', 'anthropic')).toBe(64000);
    expect(registry.maxOutputTokensOf('claude-opus-4', 'anthropic')).toBe(32000);
    expect(registry.maxOutputTokensOf('claude-3.5-haiku', 'anthropic')).toBe(8192);
    expect(registry.maxOutputTokensOf('claude-sonnet-4-20250514', 'anthropic')).toBe(64000);
    expect(registry.maxOutputTokensOf('gpt-4o', 'openai')).toBe(16384);
    expect(registry.maxOutputTokensOf('gpt-4.1', 'openai')).toBe(32768);
    expect(registry.maxOutputTokensOf('o3-mini', 'openai')).toBe(100000);
    for (const model of registry.getAllModels()) {
      if (model.provider === 'anthropic') expect(model.maxOutputTokens, model.key).toBeDefined();
      if (model.maxOutputTokens !== undefined && model.contextWindow !== undefined) expect(model.maxOutputTokens).toBeLessThanOrEqual(model.contextWindow);
    }
  });
});

describe('embedding model prices', () => {
  const embeddings = {
    openai: { 'text-embedding-3-small': { pricing: { input: 0.00002 } } },
    mistral: { 'mistral-embed': { pricing: { input: 0.0001 } } },
  };
  const registry = DynamicModelRegistry.fromJson({ ...nested, embeddings });

  it('prices an embedding model by id, provider/id or under its provider, with no output price', () => {
    expect(registry.getEmbeddingPricing('text-embedding-3-small')).toEqual({ input: 0.00002, output: 0 });
    expect(registry.getEmbeddingPricing('openai/text-embedding-3-small')).toEqual({ input: 0.00002, output: 0 });
    expect(registry.getEmbeddingPricing('mistral-embed', 'mistral')).toEqual({ input: 0.0001, output: 0 });
    expect(registry.getEmbeddingPricing('mistral-embed', 'openai')).toBeUndefined();
    expect(registry.getEmbeddingPricing('no-such-embedder')).toBeUndefined();
  });

  it('never offers an embedding model for generation (not a model of the registry)', () => {
    expect(registry.getModelConfig('text-embedding-3-small')).toBeUndefined();
    expect(registry.getAllModels().map((model) => model.id)).not.toContain('mistral-embed');
  });

  it('refuses a malformed entry, naming it', () => {
    expect(() => DynamicModelRegistry.fromJson({ ...nested, embeddings: { openai: { e1: { pricing: { input: -1 } } } } })).toThrow(
      'embeddings.openai.e1: pricing must be {input} a non-negative number (USD per 1K tokens)',
    );
    expect(() => DynamicModelRegistry.fromJson({ ...nested, embeddings: [] })).toThrow('embeddings must be an object keyed by provider');
  });

  it("the shipped registry prices each embedding provider's default model", () => {
    const shipped = DynamicModelRegistry.shipped();
    expect(shipped.getEmbeddingPricing('text-embedding-3-small', 'openai')).toEqual({ input: 0.00002, output: 0 });
    expect(shipped.getEmbeddingPricing('text-embedding-3-small', 'azure')).toEqual({ input: 0.00002, output: 0 });
    expect(shipped.getEmbeddingPricing('mistral-embed', 'mistral')).toEqual({ input: 0.0001, output: 0 });
    expect(shipped.getEmbeddingPricing('nomic-embed-text', 'ollama')).toEqual({ input: 0, output: 0 });
  });
});
