import { describe, expect, it } from 'vitest';
import { isProviderConfigured, missingProviderEnv, providerDefinitions } from '../../../src/adapters/llm/provider-registry.js';
import { providerNames } from '../../../src/generation/provider-name.js';

describe('providerDefinitions', () => {
  it('has one definition per provider kind, filed under its own name', () => {
    expect(Object.keys(providerDefinitions).sort()).toEqual([...providerNames].sort());
    for (const name of providerNames) expect(providerDefinitions[name].name).toBe(name);
  });

  it('every kind names at least one required variable, its model variables and a default model', () => {
    for (const definition of Object.values(providerDefinitions)) {
      expect(definition.requiredEnv.length, definition.name).toBeGreaterThan(0);
      expect(definition.modelEnv.length, definition.name).toBeGreaterThan(0);
      expect(definition.defaultModel, definition.name).not.toBe('');
    }
  });

  it('no kind counts as configured in an empty environment', () => {
    for (const definition of Object.values(providerDefinitions)) expect(isProviderConfigured(definition, {}), definition.name).toBe(false);
  });
});

describe('missingProviderEnv', () => {
  it('names each unmet requirement, alternatives joined with "or"', () => {
    expect(missingProviderEnv(providerDefinitions.azure, {})).toBe('AZURE_OPENAI_API_KEY, AZURE_OPENAI_ENDPOINT');
    expect(missingProviderEnv(providerDefinitions.azure, { AZURE_OPENAI_API_KEY: 'k' })).toBe('AZURE_OPENAI_ENDPOINT');
    expect(missingProviderEnv(providerDefinitions.huggingface, {})).toBe('HUGGINGFACE_API_KEY or HF_TOKEN');
    expect(missingProviderEnv(providerDefinitions.huggingface, { HF_TOKEN: 'hf_x' })).toBeUndefined();
  });

  it('treats blank values as unset', () => {
    expect(isProviderConfigured(providerDefinitions.openai, { OPENAI_API_KEY: '   ' })).toBe(false);
    expect(isProviderConfigured(providerDefinitions.openai, { OPENAI_API_KEY: 'sk-1' })).toBe(true);
  });
});
