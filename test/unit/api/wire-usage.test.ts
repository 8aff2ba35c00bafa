import { describe, expect, it } from 'vitest';
import { anthropicUsage } from '../../../api/wire/anthropic-message.js';
import { openAiUsage } from '../../../api/wire/openai-chat-completion.js';
import { openAiResponseUsage } from '../../../api/wire/openai-response.js';

/** 10,000 input tokens: 8,000 read from the cache, 1,000 written for 5 minutes, 500 for an hour, 500 uncached; 50 of 200 output tokens reasoning. */
const cached = {
  inputTokens: 10_000,
  outputTokens: 200,
  totalTokens: 10_200,
  cacheReadTokens: 8_000,
  cacheWriteTokens: 1_000,
  cacheWrite1hTokens: 500,
  reasoningTokens: 50,
};
const plain = { inputTokens: 12, outputTokens: 5, totalTokens: 17 };

describe('usage on each wire', () => {
  it('chat completions: prompt_tokens counts every input token, the details the cached and reasoning parts', () => {
    expect(openAiUsage(cached)).toEqual({
      prompt_tokens: 10_000,
      completion_tokens: 200,
      total_tokens: 10_200,
      prompt_tokens_details: { cached_tokens: 8_000 },
      completion_tokens_details: { reasoning_tokens: 50 },
    });
    expect(openAiUsage(plain)).toMatchObject({ prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } });
  });

  it('Responses: input_tokens counts every input token, input_tokens_details the cached part', () => {
    expect(openAiResponseUsage(cached)).toEqual({
      input_tokens: 10_000,
      input_tokens_details: { cached_tokens: 8_000, cache_write_tokens: 1_500 },
      output_tokens: 200,
      output_tokens_details: { reasoning_tokens: 50 },
      total_tokens: 10_200,
    });
  });

  it("Messages: Anthropic's split, input_tokens the uncached rest and the writes by lifetime", () => {
    expect(anthropicUsage(cached)).toMatchObject({
      input_tokens: 500,
      output_tokens: 200,
      cache_read_input_tokens: 8_000,
      cache_creation_input_tokens: 1_500,
      cache_creation: { ephemeral_5m_input_tokens: 1_000, ephemeral_1h_input_tokens: 500 },
    });
    expect(anthropicUsage(plain)).toMatchObject({ input_tokens: 12, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  });
});
