import type { LanguageModelUsage } from 'ai';
import type { TokenUsage } from '../../generation/language-model-client.js';

type RawUsage = LanguageModelUsage['raw'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tokens(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * The 1-hour part of one step's cache writes, from the provider's raw usage (the AI SDK's
 * `cacheWriteTokens` adds both lifetimes): Anthropic's `cache_creation.ephemeral_1h_input_tokens`,
 * Bedrock's `cacheDetails` entries with `ttl: "1h"`. 0 for providers without 1-hour writes.
 */
function oneHourWritesOf(raw: RawUsage): number {
  if (!isRecord(raw)) return 0;
  const creation = raw['cache_creation'];
  if (isRecord(creation)) return tokens(creation['ephemeral_1h_input_tokens']);
  const details = raw['cacheDetails'];
  if (Array.isArray(details))
    return details.reduce<number>((sum, detail) => sum + (isRecord(detail) && detail['ttl'] === '1h' ? tokens(detail['inputTokens']) : 0), 0);
  return 0;
}

/**
 * A call's `TokenUsage` from the AI SDK's usage (summed over the call's steps) and each step's raw
 * usage. `inputTokens` is the AI SDK's total, which counts cached tokens on every provider it maps
 * (Anthropic and Bedrock: uncached + cache writes + cache reads; OpenAI `prompt_tokens`; Gemini
 * `promptTokenCount`), as `TokenUsage` requires. Cache and reasoning fields are set only when the
 * provider reported some; the cache writes are split into the 5-minute and 1-hour lifetimes (priced
 * apart) from the raw usage.
 */
export function mapAiSdkUsage(usage: LanguageModelUsage, stepRaws: readonly RawUsage[] = [usage.raw]): TokenUsage {
  const inputTokens = usage.inputTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  const cacheRead = tokens(usage.inputTokenDetails?.cacheReadTokens);
  const cacheWrites = tokens(usage.inputTokenDetails?.cacheWriteTokens);
  const writes1h = Math.min(
    cacheWrites,
    stepRaws.reduce<number>((sum, raw) => sum + oneHourWritesOf(raw), 0),
  );
  const reasoning = tokens(usage.outputTokenDetails?.reasoningTokens);
  return {
    inputTokens,
    outputTokens,
    totalTokens: usage.totalTokens ?? inputTokens + outputTokens,
    ...(cacheRead > 0 ? { cacheReadTokens: cacheRead } : {}),
    ...(cacheWrites - writes1h > 0 ? { cacheWriteTokens: cacheWrites - writes1h } : {}),
    ...(writes1h > 0 ? { cacheWrite1hTokens: writes1h } : {}),
    ...(reasoning > 0 ? { reasoningTokens: reasoning } : {}),
  };
}
