import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../src/generation/errors/provider-errors.js';
import { fallbackOrder, selectProvider } from '../../../src/generation/select-provider.js';
import { scriptedCatalog } from '../../helpers/scripted-language-model.js';

describe('selectProvider', () => {
  it('picks the first configured provider in auto order, with the reason', () => {
    const catalog = scriptedCatalog({}, ['mistral', 'google-ai', 'ollama']);
    const selection = selectProvider(catalog, undefined, undefined);
    expect(selection.provider).toBe('google-ai');
    expect(selection.reason).toMatch(/first configured provider in auto order \(openai > anthropic > google-ai/);
    expect(selectProvider(catalog, 'auto', undefined).provider).toBe('google-ai');
  });

  it('honours DEFAULT_PROVIDER when it is configured', () => {
    const catalog = scriptedCatalog({}, ['openai', 'mistral']);
    expect(selectProvider(catalog, undefined, 'mistral')).toEqual({ provider: 'mistral', reason: 'DEFAULT_PROVIDER=mistral' });
  });

  it('falls back to the auto order when DEFAULT_PROVIDER is not configured, and says so', () => {
    const catalog = scriptedCatalog({}, ['anthropic']);
    const selection = selectProvider(catalog, undefined, 'openai');
    expect(selection.provider).toBe('anthropic');
    expect(selection.reason).toMatch(/DEFAULT_PROVIDER=openai is not configured \(missing OPENAI_API_KEY\)/);
  });

  it('rejects a DEFAULT_PROVIDER that names no provider', () => {
    expect(() => selectProvider(scriptedCatalog({}, ['openai']), undefined, 'skynet')).toThrow(/DEFAULT_PROVIDER="skynet" names no known provider/);
  });

  it('uses an explicitly requested provider over DEFAULT_PROVIDER', () => {
    const catalog = scriptedCatalog({}, ['openai', 'anthropic']);
    expect(selectProvider(catalog, 'anthropic', 'openai').provider).toBe('anthropic');
  });

  it('throws ConfigurationError naming the variable when a forced provider lacks credentials', () => {
    const catalog = scriptedCatalog({}, ['openai']);
    let caught: unknown;
    try {
      selectProvider(catalog, 'mistral', undefined);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigurationError);
    expect((caught as ConfigurationError).message).toBe('Provider "mistral" (requested) is not configured: set MISTRAL_API_KEY.');
    expect((caught as ConfigurationError).isRetryable).toBe(false);
  });

  it('throws ConfigurationError listing what to set when nothing is configured', () => {
    expect(() => selectProvider(scriptedCatalog({}), undefined, undefined)).toThrow(
      /No AI provider is configured: set one of OPENAI_API_KEY, ANTHROPIC_API_KEY/,
    );
  });

  it('orders the fallback chain: the selection, then the other configured providers in auto order', () => {
    const catalog = scriptedCatalog({}, ['ollama', 'mistral', 'openai']);
    expect(fallbackOrder(catalog, selectProvider(catalog, undefined, 'mistral'))).toEqual(['mistral', 'openai', 'ollama']);
  });
});
