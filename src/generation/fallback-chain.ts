import { AIProviderError } from './errors/ai-provider-error.js';
import type { ProviderAttempt } from './generate-result.js';
import type { ProviderName } from './provider-name.js';

export interface ChainLink {
  readonly provider: ProviderName;
  /** Absent: the provider's default model. */
  readonly model?: string;
  /** Which of the merchant's stored credentials of `provider` pays (a route group candidate's `credential`); absent: its default, else the operator's. */
  readonly credential?: string;
}

export interface ChainOutcome<T> {
  readonly value: T;
  readonly link: ChainLink;
  /** Links that failed (retryably) before `link` answered. */
  readonly attempts: readonly ProviderAttempt[];
}

/** Only toolkit errors flagged retryable (429, 5xx, timeouts, network) move a chain on; client mistakes stop it. */
export function isRetryableError(error: unknown): boolean {
  return error instanceof AIProviderError && error.isRetryable;
}

/**
 * Tries each link in order until one succeeds. A non-retryable error (bad request, auth,
 * configuration, a caller's abort) is rethrown at once: the next provider would fail the same way
 * or do something the caller did not ask for. When every link failed retryably, the error names
 * each provider and why; with one link its own error is rethrown unchanged.
 *
 * @remarks For streams the attempt covers opening the stream and reading its first chunk, so a
 * chain never switches provider after text has reached the caller.
 */
export async function runFallbackChain<T>(links: readonly ChainLink[], attempt: (link: ChainLink) => Promise<T>): Promise<ChainOutcome<T>> {
  if (links.length === 0) throw new AIProviderError('no provider to try', 'toolkit', { isRetryable: false });
  const attempts: ProviderAttempt[] = [];
  let lastError: unknown;
  for (const link of links) {
    try {
      return { value: await attempt(link), link, attempts };
    } catch (error) {
      if (!isRetryableError(error)) throw error;
      lastError = error;
      const failure = error as AIProviderError;
      attempts.push({ provider: link.provider, ...(link.model !== undefined ? { model: link.model } : {}), error: failure.message, errorCode: failure.code });
    }
  }
  if (links.length === 1) throw lastError;
  const last = lastError as AIProviderError;
  const summary = attempts.map((entry) => `${entry.provider}: ${entry.error ?? 'failed'}`).join('; ');
  throw new AIProviderError(`All ${links.length} providers failed. ${summary}`, last.provider, {
    originalError: last,
    isRetryable: true,
    code: last.code,
    ...(last.statusCode !== undefined ? { statusCode: last.statusCode } : {}),
  });
}
