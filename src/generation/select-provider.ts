import { ConfigurationError } from './errors/provider-errors.js';
import type { ProviderCatalog } from './provider-catalog.js';
import { normalizeProviderName, type ProviderName } from './provider-name.js';

export interface ProviderSelection {
  readonly provider: ProviderName;
  /** Why this provider was chosen, for logs, `getBestProvider` callers and the CLI's `--debug`. */
  readonly reason: string;
}

function notConfigured(catalog: ProviderCatalog, provider: ProviderName, how: string): ConfigurationError {
  const missing = catalog.missingEnv(provider);
  const what = missing.length > 0 ? `set ${missing.join(' and ')}` : 'check its settings';
  return new ConfigurationError(`Provider "${provider}" (${how}) is not configured: ${what}.`, provider);
}

/** Refuses a provider a caller named that is not configured, naming the variables to set. */
export function requireConfigured(catalog: ProviderCatalog, provider: ProviderName): void {
  if (!catalog.isConfigured(provider)) throw notConfigured(catalog, provider, 'requested');
}

/**
 * Picks the provider for a call, deterministically and offline:
 * 1. an explicitly requested kind (not `auto`) — used if configured, else `ConfigurationError`
 *    naming the variable to set (a forced provider never silently becomes another one);
 * 2. `DEFAULT_PROVIDER` when it is set and configured;
 * 3. the first configured kind in `catalog.names` (the documented auto order).
 */
export function selectProvider(catalog: ProviderCatalog, requested: ProviderName | 'auto' | undefined, defaultProvider: string | undefined): ProviderSelection {
  if (requested !== undefined && requested !== 'auto') {
    requireConfigured(catalog, requested);
    return { provider: requested, reason: `requested explicitly` };
  }
  let skippedDefault = '';
  if (defaultProvider !== undefined && defaultProvider.trim() !== '') {
    const preferred = normalizeProviderName(defaultProvider);
    if (preferred === undefined) {
      throw new ConfigurationError(`DEFAULT_PROVIDER="${defaultProvider}" names no known provider; use one of ${catalog.names.join(', ')} or auto.`, 'toolkit');
    }
    if (preferred !== 'auto') {
      if (catalog.isConfigured(preferred)) return { provider: preferred, reason: `DEFAULT_PROVIDER=${preferred}` };
      skippedDefault = `DEFAULT_PROVIDER=${preferred} is not configured (missing ${catalog.missingEnv(preferred).join(', ')}); `;
    }
  }
  const first = catalog.names.find((name) => catalog.isConfigured(name));
  if (first === undefined) {
    // Each variable once: bedrock and sagemaker both start with AWS_ACCESS_KEY_ID.
    const hints = [...new Set(catalog.names.map((name) => catalog.missingEnv(name)[0]).filter((hint): hint is string => hint !== undefined))];
    throw new ConfigurationError(`No AI provider is configured: set one of ${hints.join(', ')} (or a .env file in the working directory).`, 'toolkit');
  }
  return { provider: first, reason: `${skippedDefault}first configured provider in auto order (${catalog.names.join(' > ')})` };
}

/** The chain a call without an explicit provider walks: the selection first, then every other configured kind in order. */
export function fallbackOrder(catalog: ProviderCatalog, selection: ProviderSelection): ProviderName[] {
  return [selection.provider, ...catalog.names.filter((name) => name !== selection.provider && catalog.isConfigured(name))];
}
