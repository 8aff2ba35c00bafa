import type { AnalyticsData } from '../generate-result.js';
import type { TokenUsage } from '../language-model-client.js';
import { callCostUsd, type TokenPricing } from './model-pricing.js';

/**
 * Cost = (input/1000)·pricing.input + (output/1000)·pricing.output, rounded to 5 decimals (USD): a
 * call without prompt-cache use. `computeAnalytics` prices cached tokens apart (`callCostUsd`).
 */
export function computeCost(tokens: { readonly input: number; readonly output: number }, pricing: TokenPricing): number {
  const raw = (tokens.input / 1000) * pricing.input + (tokens.output / 1000) * pricing.output;
  return Math.round(raw * 100_000) / 100_000;
}

export interface AnalyticsInput {
  readonly provider: string;
  readonly model: string;
  readonly usage: TokenUsage;
  readonly responseTime: number;
  readonly pricing: TokenPricing | undefined;
  readonly context?: Readonly<Record<string, unknown>> | undefined;
  readonly now: Date;
}

/** The `analytics` block of a result; `cost` is left out when no price is known. */
export function computeAnalytics(input: AnalyticsInput): AnalyticsData {
  const tokens = {
    input: input.usage.inputTokens,
    output: input.usage.outputTokens,
    total: input.usage.totalTokens || input.usage.inputTokens + input.usage.outputTokens,
  };
  return {
    provider: input.provider,
    model: input.model,
    tokens,
    // The same price as the call's `llm.call` record (prompt-cache tokens at their own prices), to 5 decimals.
    ...(input.pricing !== undefined ? { cost: Math.round(callCostUsd(input.usage, input.pricing) * 100_000) / 100_000 } : {}),
    responseTime: input.responseTime,
    ...(input.context !== undefined ? { context: input.context } : {}),
    timestamp: input.now.toISOString(),
  };
}
