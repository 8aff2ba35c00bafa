import { DefaultNeuroLink } from '../../src/adapters/toolkit/default-neurolink.js';
import { describe, expect, it } from 'vitest';
import { providerDefinitions } from '../../src/adapters/llm/provider-registry.js';
import { isProviderConfigured, missingProviderEnv } from '../../src/generation/provider-env.js';
import { providerNames } from '../../src/generation/provider-name.js';

/**
 * Live calls to the real providers, for a developer with keys. Each provider runs only when its
 * variables are set in the environment (never from a .env: CI must not pick up a stray key), and
 * otherwise is reported as skipped with the variables to set. CI sets none, so it never calls out.
 */
const env = process.env;

describe('live provider calls', () => {
  for (const provider of providerNames) {
    const definition = providerDefinitions[provider];
    const configured = isProviderConfigured(definition, env);
    const title = configured ? `${provider}: answers a one-line prompt` : `${provider}: skipped (set ${missingProviderEnv(definition, env)} to run it)`;
    it.skipIf(!configured)(
      title,
      async () => {
        const toolkit = new DefaultNeuroLink({ env, builtInTools: [], warn: () => undefined });
        const result = await toolkit.generate({ input: { text: 'Reply with the single word: pong' }, provider, maxTokens: 16, temperature: 0, timeout: '60s' });
        expect(result.provider).toBe(provider);
        expect(result.content.toLowerCase()).toContain('pong');
        expect(result.usage.totalTokens).toBeGreaterThan(0);
      },
      90_000,
    );
  }
});
