import type { ProviderCatalog } from '../generation/provider-catalog.js';
import type { ProviderName } from '../generation/provider-name.js';

export interface ProviderStatus {
  readonly provider: ProviderName;
  /** `configured`/`not-configured` from settings alone; `working`/`failed` only after a probe. */
  readonly status: 'configured' | 'not-configured' | 'working' | 'failed';
  readonly configured: boolean;
  /** Known only after a probe. */
  readonly authenticated?: boolean;
  readonly model?: string;
  /** Variables still to set. */
  readonly missing?: readonly string[];
  readonly error?: string;
  readonly responseTime?: number;
}

export interface ProviderStatusOptions {
  /**
   * Make a 1-token call to each configured provider (costs money, takes time). Off by default:
   * status is then read from settings only.
   */
  readonly probe?: boolean;
  /** Per-probe limit in ms; default 5000. */
  readonly timeoutMs?: number;
}

/** Status of every provider kind; probes run only when asked, and all at once. */
export async function providerStatuses(
  catalog: ProviderCatalog,
  options: ProviderStatusOptions,
  clock: () => number = () => performance.now(),
): Promise<ProviderStatus[]> {
  return Promise.all(
    catalog.names.map(async (provider): Promise<ProviderStatus> => {
      if (!catalog.isConfigured(provider)) return { provider, status: 'not-configured', configured: false, missing: catalog.missingEnv(provider) };
      const model = catalog.defaultModel(provider);
      if (options.probe !== true) return { provider, status: 'configured', configured: true, model };
      const started = clock();
      try {
        const client = catalog.createClient(provider, model);
        await client.generate({
          messages: [{ role: 'user', content: 'ping' }],
          temperature: 0,
          maxTokens: 1,
          maxSteps: 1,
          abortSignal: AbortSignal.timeout(options.timeoutMs ?? 5000),
        });
        return { provider, status: 'working', configured: true, authenticated: true, model, responseTime: Math.round(clock() - started) };
      } catch (error) {
        const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
        return {
          provider,
          status: 'failed',
          configured: true,
          authenticated: code !== 'AUTHENTICATION',
          model,
          error: error instanceof Error ? error.message : String(error),
          responseTime: Math.round(clock() - started),
        };
      }
    }),
  );
}
