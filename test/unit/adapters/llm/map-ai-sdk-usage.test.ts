import type { LanguageModelUsage } from 'ai';
import { describe, expect, it } from 'vitest';
import { mapAiSdkUsage } from '../../../../src/adapters/llm/map-ai-sdk-usage.js';

function usage(fields: {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
  raw?: LanguageModelUsage['raw'];
}): LanguageModelUsage {
  return {
    inputTokens: fields.input,
    inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: fields.cacheRead, cacheWriteTokens: fields.cacheWrite },
    outputTokens: fields.output,
    outputTokenDetails: { textTokens: undefined, reasoningTokens: fields.reasoning },
    totalTokens: fields.input === undefined ? undefined : fields.input + (fields.output ?? 0),
    ...(fields.raw !== undefined ? { raw: fields.raw } : {}),
  };
}

describe('mapAiSdkUsage', () => {
  it('keeps the total input (cached tokens included) and leaves the cache fields out when none were reported', () => {
    expect(mapAiSdkUsage(usage({ input: 100, output: 10 }))).toEqual({ inputTokens: 100, outputTokens: 10, totalTokens: 110 });
    expect(mapAiSdkUsage(usage({ input: 100, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 }))).toEqual({
      inputTokens: 100,
      outputTokens: 10,
      totalTokens: 110,
    });
  });

  it("splits Anthropic's cache writes into 5-minute and 1-hour from its raw usage", () => {
    const raw = {
      input_tokens: 500,
      cache_read_input_tokens: 8_000,
      cache_creation_input_tokens: 1_500,
      cache_creation: { ephemeral_5m_input_tokens: 1_000, ephemeral_1h_input_tokens: 500 },
    };
    expect(mapAiSdkUsage(usage({ input: 10_000, output: 50, cacheRead: 8_000, cacheWrite: 1_500, raw }))).toEqual({
      inputTokens: 10_000,
      outputTokens: 50,
      totalTokens: 10_050,
      cacheReadTokens: 8_000,
      cacheWriteTokens: 1_000,
      cacheWrite1hTokens: 500,
    });
  });

  it("reads Bedrock's 1-hour writes from cacheDetails, and an OpenAI cached read and reasoning tokens", () => {
    const bedrock = {
      inputTokens: 10,
      cacheWriteInputTokens: 300,
      cacheDetails: [
        { ttl: '1h', inputTokens: 200 },
        { ttl: '5m', inputTokens: 100 },
      ],
    };
    expect(mapAiSdkUsage(usage({ input: 310, output: 5, cacheWrite: 300, raw: bedrock }))).toMatchObject({ cacheWriteTokens: 100, cacheWrite1hTokens: 200 });
    expect(mapAiSdkUsage(usage({ input: 2_048, output: 100, cacheRead: 1_024, reasoning: 64, raw: { prompt_tokens: 2_048 } }))).toEqual({
      inputTokens: 2_048,
      outputTokens: 100,
      totalTokens: 2_148,
      cacheReadTokens: 1_024,
      reasoningTokens: 64,
    });
  });

  it("adds the 1-hour writes of every step of a tool loop (the summed usage keeps no step's raw usage)", () => {
    const step = (oneHour: number) => ({ cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: oneHour } });
    expect(mapAiSdkUsage(usage({ input: 3_000, output: 20, cacheWrite: 700 }), [step(300), step(400)])).toMatchObject({ cacheWrite1hTokens: 700 });
    expect(mapAiSdkUsage(usage({ input: 3_000, output: 20, cacheWrite: 700 }), [step(300), undefined])).toMatchObject({
      cacheWriteTokens: 400,
      cacheWrite1hTokens: 300,
    });
  });
});
