import { describe, expect, it } from 'vitest';
import { anthropicUsage, openAiChatUsage, responsesUsage, streamTally } from '../../../../src/adapters/llm/native-wire-usage.js';
import { isTerminalEvent } from '../../../../src/generation/native-wire.js';

describe('native wire usage', () => {
  it('counts every Anthropic input token, cache writes by lifetime and reads apart', () => {
    expect(
      anthropicUsage({
        input_tokens: 12,
        cache_creation_input_tokens: 300,
        cache_read_input_tokens: 2000,
        cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 },
        output_tokens: 40,
      }),
    ).toEqual({ inputTokens: 2312, outputTokens: 40, totalTokens: 2352, cacheReadTokens: 2000, cacheWriteTokens: 100, cacheWrite1hTokens: 200 });
  });

  it('takes every Anthropic cache write as 5-minute when the split is absent, and adds no cache fields when there are none', () => {
    expect(anthropicUsage({ input_tokens: 10, cache_creation_input_tokens: 50, output_tokens: 1 })).toEqual({
      inputTokens: 60,
      outputTokens: 1,
      totalTokens: 61,
      cacheWriteTokens: 50,
    });
    expect(anthropicUsage({ input_tokens: 10, output_tokens: 1 })).toEqual({ inputTokens: 10, outputTokens: 1, totalTokens: 11 });
  });

  it("reads OpenAI's cached and reasoning parts, whose totals already include them", () => {
    expect(
      openAiChatUsage({
        prompt_tokens: 2100,
        completion_tokens: 30,
        total_tokens: 2130,
        prompt_tokens_details: { cached_tokens: 1920 },
        completion_tokens_details: { reasoning_tokens: 12 },
      }),
    ).toEqual({ inputTokens: 2100, outputTokens: 30, totalTokens: 2130, cacheReadTokens: 1920, reasoningTokens: 12 });
    expect(
      responsesUsage({
        input_tokens: 2100,
        input_tokens_details: { cached_tokens: 1024 },
        output_tokens: 50,
        output_tokens_details: { reasoning_tokens: 20 },
        total_tokens: 2150,
      }),
    ).toEqual({ inputTokens: 2100, outputTokens: 50, totalTokens: 2150, cacheReadTokens: 1024, reasoningTokens: 20 });
  });

  it('follows an Anthropic stream: input usage from message_start, output from the last message_delta, an error event as a failure', () => {
    const tally = streamTally('anthropic-messages', 'claude', 0);
    tally.take({
      event: 'message_start',
      data: JSON.stringify({ message: { model: 'claude-x', usage: { input_tokens: 5, cache_read_input_tokens: 100, output_tokens: 1 } } }),
    });
    tally.take({ event: 'content_block_delta', data: '{"delta":{"type":"text_delta","text":"hi"}}' });
    tally.take({ event: 'message_delta', data: JSON.stringify({ usage: { output_tokens: 9 } }) });
    expect(tally.summary()).toEqual({
      usage: { inputTokens: 105, outputTokens: 9, totalTokens: 114, cacheReadTokens: 100 },
      estimated: false,
      model: 'claude-x',
    });
    expect(tally.take({ event: 'error', data: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' })).toMatchObject({
      type: 'overloaded_error',
    });
  });

  it('estimates a chat stream whose client asked for no usage chunk, at 4 characters a token', () => {
    const tally = streamTally('openai-chat', 'gpt', 400);
    tally.take({ data: JSON.stringify({ model: 'gpt-x', choices: [{ delta: { content: 'abcdefgh' } }] }) });
    tally.take({ data: '[DONE]' });
    expect(tally.summary()).toEqual({ usage: { inputTokens: 100, outputTokens: 2, totalTokens: 102 }, estimated: true, model: 'gpt-x' });
  });

  it('names the terminal event of each wire', () => {
    expect(isTerminalEvent('openai-chat', { data: '[DONE]' })).toBe(true);
    expect(isTerminalEvent('anthropic-messages', { event: 'message_stop', data: '{}' })).toBe(true);
    expect(isTerminalEvent('openai-responses', { event: 'response.completed', data: '{}' })).toBe(true);
    expect(isTerminalEvent('openai-responses', { event: 'response.output_text.delta', data: '{}' })).toBe(false);
  });
});
