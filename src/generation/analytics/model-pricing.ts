/**
 * USD per 1,000 tokens, as `config/models.json` states prices; the prompt-cache prices are optional
 * (see {@link callCostUsd} for what their absence means).
 */
export interface TokenPricing {
  readonly input: number;
  readonly output: number;
  /** Input tokens read from the provider's prompt cache. */
  readonly cacheRead?: number;
  /** Input tokens written to the prompt cache, 5-minute lifetime. */
  readonly cacheWrite?: number;
  /** Input tokens written to the prompt cache, 1-hour lifetime. */
  readonly cacheWrite1h?: number;
}

/**
 * The token counts a call is priced on (a `TokenUsage` or an `LlmCallRecord` fits): `inputTokens`
 * counts every input token, the cache fields say which part of it was read from or written to the
 * provider's prompt cache.
 */
export interface PricedUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens?: number | undefined;
  readonly cacheWriteTokens?: number | undefined;
  readonly cacheWrite1hTokens?: number | undefined;
}

/** Finds the price of a model; `undefined` when the registry does not know it. */
export type ModelPriceLookup = (modelId: string) => TokenPricing | undefined;

/**
 * Flat per-provider prices used when the model is not in the registry (reference §4.1, NeuroLink's
 * `modelConfiguration` defaults). Providers that front arbitrary models (litellm, sagemaker,
 * openai-compatible) have no default: their cost is unknown rather than guessed.
 */
const providerDefaults: Readonly<Record<string, TokenPricing>> = {
  'google-ai': { input: 0.000075, output: 0.0003 },
  vertex: { input: 0.000075, output: 0.0003 },
  openai: { input: 0.00015, output: 0.0006 },
  anthropic: { input: 0.00025, output: 0.00125 },
  bedrock: { input: 0.00025, output: 0.00125 },
  azure: { input: 0.00015, output: 0.0006 },
  ollama: { input: 0, output: 0 },
  huggingface: { input: 0.0002, output: 0.0006 },
  mistral: { input: 0.0002, output: 0.0006 },
};

/** `google-ai` → `GOOGLE_AI`: the prefix of `<PROVIDER>_DEFAULT_INPUT_COST` / `_OUTPUT_COST`. */
function envPrefix(provider: string): string {
  return provider.toUpperCase().replace(/-/g, '_');
}

function envPrice(env: Readonly<Record<string, string | undefined>>, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * The provider's default price, overridable per provider with `<PROVIDER>_DEFAULT_INPUT_COST`
 * and `<PROVIDER>_DEFAULT_OUTPUT_COST` (USD per 1K tokens).
 */
export function providerDefaultPricing(provider: string, env: Readonly<Record<string, string | undefined>> = {}): TokenPricing | undefined {
  const base = providerDefaults[provider];
  const input = envPrice(env, `${envPrefix(provider)}_DEFAULT_INPUT_COST`) ?? base?.input;
  const output = envPrice(env, `${envPrefix(provider)}_DEFAULT_OUTPUT_COST`) ?? base?.output;
  return input === undefined || output === undefined ? undefined : { input, output };
}

/** Registry price for the model first, else the provider default, else unknown. */
export function resolvePricing(
  provider: string,
  modelId: string,
  lookup: ModelPriceLookup | undefined,
  env: Readonly<Record<string, string | undefined>> = {},
): TokenPricing | undefined {
  return lookup?.(modelId) ?? providerDefaultPricing(provider, env);
}

/** USD to a billionth (see {@link callCostUsd}). */
function toNanoUsd(usd: number): number {
  return Math.round(usd * 1e9) / 1e9;
}

/** A count the provider reported, as a non-negative whole number (absent, negative or NaN: 0). */
function count(tokens: number | undefined): number {
  return tokens !== undefined && tokens > 0 ? tokens : 0;
}

/**
 * What one call cost, in USD to a billionth: a record is one call, and one call of a cheap model
 * costs far less than the 1e-5 the `analytics.cost` of a result is rounded to; sums over many
 * records must not lose it.
 *
 * cost = (input − read − write − write1h) × input price + read × cacheRead + write × cacheWrite
 *        + write1h × cacheWrite1h + output × output price (per 1K tokens).
 *
 * A model without a cache price has that part priced at its `input` price: a provider whose price
 * list has no separate figure (no write premium on OpenAI and Gemini, a registry entry written
 * before cache prices existed, a provider default) is never under-counted, and a model that was
 * never asked to cache costs what it did before. Cache counts larger than the input (a provider
 * reporting them apart from it) leave no negative uncached part.
 */
export function callCostUsd(usage: PricedUsage, pricing: TokenPricing): number {
  const read = count(usage.cacheReadTokens);
  const write = count(usage.cacheWriteTokens);
  const write1h = count(usage.cacheWrite1hTokens);
  const uncached = Math.max(0, count(usage.inputTokens) - read - write - write1h);
  const usd =
    uncached * pricing.input +
    read * (pricing.cacheRead ?? pricing.input) +
    write * (pricing.cacheWrite ?? pricing.input) +
    write1h * (pricing.cacheWrite1h ?? pricing.input) +
    count(usage.outputTokens) * pricing.output;
  return toNanoUsd(usd / 1000);
}

/**
 * What prompt caching saved on one call, in USD to a billionth: the call's cost with every input
 * token at the full input price, less its real cost ({@link callCostUsd}). Negative when the call
 * wrote more to the cache than it read (Anthropic's write premium is paid before the reads repay it);
 * 0 for a call that reported no cache use.
 */
export function promptCacheSavedUsd(usage: PricedUsage, pricing: TokenPricing): number {
  if (count(usage.cacheReadTokens) + count(usage.cacheWriteTokens) + count(usage.cacheWrite1hTokens) === 0) return 0;
  const fullPrice = callCostUsd({ inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }, pricing);
  return toNanoUsd(fullPrice - callCostUsd(usage, pricing));
}
