/** USD per 1K tokens, as the model registry prices models. */
export interface TokenPrice {
  readonly input: number;
  readonly output: number;
}

/**
 * What a request may cost at most, held against its key's budget while it runs: the prompt
 * (counted generously at one token per 3 characters) plus every token `maxTokens` allows, at the
 * dearest candidate's price. 0 for an unpriced model: it can only be counted once it has run.
 */
export function reservationUsd(prices: readonly (TokenPrice | undefined)[], promptCharacters: number, maxTokens: number): number {
  const promptTokens = Math.ceil(promptCharacters / 3);
  let most = 0;
  for (const price of prices) {
    if (price === undefined) continue;
    most = Math.max(most, (promptTokens / 1000) * price.input + (maxTokens / 1000) * price.output);
  }
  return Math.round(most * 1e9) / 1e9;
}
