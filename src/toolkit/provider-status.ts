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
  /** Probes in flight at once; default every configured provider at once. */
  readonly concurrency?: number;
}

/** Maps `items` with at most `limit` calls of `work` in flight, keeping the order. */
async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}

/** Status of every provider kind; probes run only when asked, `concurrency` at a time (default all at once). */
export async function providerStatuses(
  catalog: ProviderCatalog,
  options: ProviderStatusOptions,
  clock: () => number = () => performance.now(),
): Promise<ProviderStatus[]> {
  return mapBounded(catalog.names, options.concurrency ?? catalog.names.length, async (provider): Promise<ProviderStatus> => {
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
  });
}
