/** USD per 1,000 tokens, as `config/models.json` states prices. */
export interface TokenPricing {
  readonly input: number;
  readonly output: number;
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

/**
 * USD to a billionth: a record is one call, and one call of a cheap model costs far less than the
 * 1e-5 the `analytics.cost` of a result is rounded to; sums over many records must not lose it.
 */
export function callCostUsd(inputTokens: number, outputTokens: number, pricing: TokenPricing): number {
  return Math.round(((inputTokens / 1000) * pricing.input + (outputTokens / 1000) * pricing.output) * 1e9) / 1e9;
}
