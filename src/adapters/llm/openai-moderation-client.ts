import { AIProviderError } from '../../generation/errors/ai-provider-error.js';
import type { ModerationClient } from '../../generation/moderation/moderation-client.js';
import type { ModerationVerdict } from '../../guardrails/run-guard-checks.js';

/** 10 s: a moderation call is one short classification; a guard waiting longer holds the caller's request. */
const moderationTimeoutMs = 10_000;

interface OpenAiModeration {
  readonly flagged?: unknown;
  readonly categories?: unknown;
  readonly category_scores?: unknown;
}

/**
 * OpenAI's moderation endpoint (`POST {base}/moderations`, body `{ model, input: [texts] }`, answer
 * `{ id, model, results: [{ flagged, categories, category_scores, category_applied_input_types }] }`, one
 * result per input in order). Texts only: the guard never sends images.
 */
export function createOpenAiModerationClient(options: {
  readonly modelId: string;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly fetch?: typeof globalThis.fetch | undefined;
}): ModerationClient {
  const send = options.fetch ?? globalThis.fetch;
  return {
    provider: 'openai',
    modelId: options.modelId,
    async moderate(texts, call = {}): Promise<readonly ModerationVerdict[]> {
      const signal =
        call.abortSignal === undefined
          ? AbortSignal.timeout(moderationTimeoutMs)
          : AbortSignal.any([call.abortSignal, AbortSignal.timeout(moderationTimeoutMs)]);
      const response = await send(`${options.baseUrl}/moderations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: options.modelId, input: texts }),
        signal,
      });
      const body = (await response.json().catch(() => undefined)) as { results?: unknown; error?: { message?: unknown } } | undefined;
      if (!response.ok) {
        const message = typeof body?.error?.message === 'string' ? body.error.message : `HTTP ${response.status}`;
        throw new AIProviderError(`openai moderation: ${message}`, 'openai', { statusCode: response.status });
      }
      const results = body?.results;
      if (!Array.isArray(results) || results.length !== texts.length) throw new AIProviderError('openai moderation: unreadable answer', 'openai');
      return results.map((result: OpenAiModeration) => ({
        flagged: result.flagged === true,
        categories: (typeof result.categories === 'object' && result.categories !== null ? result.categories : {}) as Record<string, boolean | null>,
        scores: (typeof result.category_scores === 'object' && result.category_scores !== null ? result.category_scores : {}) as Record<string, number>,
      }));
    },
  };
}
