import { ConfigurationError } from './errors/provider-errors.js';
import type { ProviderDefinition, ProviderEnv } from './provider-definition.js';

/** The first of `names` that is set to a non-blank value, trimmed. */
export function readEnv(env: ProviderEnv, ...names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/**
 * The unmet `requiredEnv` entries as text (`OPENAI_API_KEY`, `HUGGINGFACE_API_KEY or HF_TOKEN`,
 * joined with `, `), or `undefined` when the provider is fully configured.
 */
export function missingProviderEnv(definition: Pick<ProviderDefinition, 'requiredEnv'>, env: ProviderEnv): string | undefined {
  const missing = definition.requiredEnv.filter((alternatives) => readEnv(env, ...alternatives) === undefined).map((alternatives) => alternatives.join(' or '));
  return missing.length === 0 ? undefined : missing.join(', ');
}

export function isProviderConfigured(definition: Pick<ProviderDefinition, 'requiredEnv'>, env: ProviderEnv): boolean {
  return missingProviderEnv(definition, env) === undefined;
}

/** Throws the `ConfigurationError` that `ProviderDefinition.create` promises when a variable is missing. */
export function assertProviderConfigured(definition: Pick<ProviderDefinition, 'name' | 'requiredEnv'>, env: ProviderEnv): void {
  const missing = missingProviderEnv(definition, env);
  if (missing !== undefined) {
    throw new ConfigurationError(`${definition.name} is not configured: set ${missing}`, definition.name);
  }
}

/** A base URL from the environment must be an absolute http(s) URL; a typo fails at setup, not at the first call. */
export function parseBaseUrl(provider: ProviderDefinition['name'], variable: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(`${provider}: ${variable} is not a valid URL: ${value}`, provider);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(`${provider}: ${variable} must be an http(s) URL: ${value}`, provider);
  }
  return value.replace(/\/+$/, '');
}

/** Whether `modelId` contains one of the tool-capable model name fragments (case-insensitive). */
export function modelMatchesAny(modelId: string, fragments: readonly string[]): boolean {
  const lower = modelId.toLowerCase();
  return fragments.some((fragment) => fragment !== '' && lower.includes(fragment.toLowerCase()));
}
