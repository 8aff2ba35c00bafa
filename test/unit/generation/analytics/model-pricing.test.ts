import { describe, expect, it } from 'vitest';
import { callCostUsd, promptCacheSavedUsd } from '../../../../src/generation/analytics/model-pricing.js';
import { DynamicModelRegistry } from '../../../../src/generation/models/dynamic-model-registry.js';

const registry = DynamicModelRegistry.shipped();
const sonnet = registry.getModelConfig('claude-sonnet-4', 'anthropic')?.pricing;
const gpt4o = registry.getModelConfig('gpt-4o', 'openai')?.pricing;
if (sonnet === undefined || gpt4o === undefined) throw new Error('the shipped registry prices claude-sonnet-4 and gpt-4o');

describe('callCostUsd with prompt caching', () => {
  it('prices a call without cache use as input and output only', () => {
    expect(callCostUsd({ inputTokens: 1000, outputTokens: 2000 }, { input: 0.005, output: 0.015 })).toBe(0.035);
  });

  it("prices Anthropic's reads at 0.1×, 5-minute writes at 1.25× and 1-hour writes at 2× of input, the rest at input", () => {
    // claude-sonnet-4: $3 / M input, $15 / M output. 10,000 input: 1,000 uncached, 6,000 read, 2,000 written 5 min, 1,000 written 1 h.
    const usage = { inputTokens: 10_000, outputTokens: 500, cacheReadTokens: 6_000, cacheWriteTokens: 2_000, cacheWrite1hTokens: 1_000 };
    const expected = (1_000 * 3 + 6_000 * 0.3 + 2_000 * 3.75 + 1_000 * 6 + 500 * 15) / 1_000_000;
    expect(callCostUsd(usage, sonnet)).toBeCloseTo(expected, 12);
    expect(callCostUsd(usage, sonnet)).toBeCloseTo(0.0258, 12);
  });

  it("prices OpenAI's cached input at its published price and nothing else apart", () => {
    // gpt-4o: $2.50 / M input, $1.25 / M cached, $10 / M output.
    expect(callCostUsd({ inputTokens: 2_048, outputTokens: 100, cacheReadTokens: 1_024 }, gpt4o)).toBeCloseTo(
      (1_024 * 2.5 + 1_024 * 1.25 + 100 * 10) / 1e6,
      12,
    );
  });

  it('prices cache tokens at the input price when the model has no cache price (never under-counted)', () => {
    const plain = { input: 0.002, output: 0.006 };
    const usage = { inputTokens: 5_000, outputTokens: 100, cacheReadTokens: 3_000, cacheWriteTokens: 1_000, cacheWrite1hTokens: 500 };
    expect(callCostUsd(usage, plain)).toBe(callCostUsd({ inputTokens: 5_000, outputTokens: 100 }, plain));
    // A price list with only a read price (OpenAI): writes at input.
    expect(callCostUsd({ inputTokens: 1_000, outputTokens: 0, cacheWriteTokens: 1_000 }, gpt4o)).toBeCloseTo(0.0025, 12);
  });

  it('leaves no negative uncached part when the cache counts exceed the input a provider reported', () => {
    expect(callCostUsd({ inputTokens: 100, outputTokens: 0, cacheReadTokens: 1_000 }, sonnet)).toBeCloseTo((1_000 * 0.3) / 1e6, 12);
  });
});

describe('promptCacheSavedUsd', () => {
  it('is the cost at the full input price less the real cost: positive for reads', () => {
    const usage = { inputTokens: 10_000, outputTokens: 100, cacheReadTokens: 9_000 };
    expect(promptCacheSavedUsd(usage, sonnet)).toBeCloseTo((9_000 * (3 - 0.3)) / 1e6, 12);
    expect(promptCacheSavedUsd(usage, sonnet)).toBeCloseTo(callCostUsd({ inputTokens: 10_000, outputTokens: 100 }, sonnet) - callCostUsd(usage, sonnet), 12);
  });

  it('is negative for a call that only wrote to the cache (the write premium)', () => {
    expect(promptCacheSavedUsd({ inputTokens: 9_000, outputTokens: 0, cacheWriteTokens: 9_000 }, sonnet)).toBeCloseTo(-(9_000 * 0.75) / 1e6, 12);
    expect(promptCacheSavedUsd({ inputTokens: 2_000, outputTokens: 0, cacheWrite1hTokens: 2_000 }, sonnet)).toBeCloseTo(-(2_000 * 3) / 1e6, 12);
  });

  it('is 0 without cache use, and 0 for cache use of a model without cache prices', () => {
    expect(promptCacheSavedUsd({ inputTokens: 10_000, outputTokens: 100 }, sonnet)).toBe(0);
    expect(promptCacheSavedUsd({ inputTokens: 10_000, outputTokens: 100, cacheReadTokens: 5_000 }, { input: 0.002, output: 0.006 })).toBe(0);
  });
});
