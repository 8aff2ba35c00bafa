import { describe, expect, it } from 'vitest';
import { reasoningOfThinking } from '../../../../src/generation/gateway/anthropic-messages-request.js';
import { droppedOnTranslation } from '../../../../src/generation/gateway/translated-fields.js';

describe('droppedOnTranslation', () => {
  it('names nothing for a request made only of carried fields', () => {
    const body = {
      model: 'openai/gpt-4o',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0.3,
      thinking: { type: 'enabled', budget_tokens: 2048 },
    };
    expect(droppedOnTranslation('anthropic-messages', body)).toEqual([]);
  });

  it('names unknown top-level fields, cache markers and thinking blocks of a Messages request (Claude Code shape)', () => {
    const body = {
      model: 'openai/gpt-4o',
      max_tokens: 32_000,
      system: [{ type: 'text', text: 'You are Claude Code', cache_control: { type: 'ephemeral', ttl: '1h' } }],
      messages: [
        { role: 'user', content: 'fix the bug' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'sig' },
            { type: 'text', text: 'done' },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'thanks', cache_control: { type: 'ephemeral' } }] },
      ],
      metadata: { user_id: 'u1' },
      context_management: { edits: [] },
      output_config: { effort: 'high' },
    };
    expect(droppedOnTranslation('anthropic-messages', body)).toEqual([
      'metadata',
      'context_management',
      'output_config',
      'cache_control',
      'messages[].content[].thinking',
    ]);
  });

  it('keeps cache_control off the list when the target maps cache markers', () => {
    const body = {
      model: 'bedrock/claude',
      max_tokens: 5,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral' } }] }],
    };
    expect(droppedOnTranslation('anthropic-messages', body, { cacheMarkersMapped: true })).toEqual([]);
  });

  it('names what a Responses request to Chat Completions loses (Codex shape)', () => {
    const body = {
      model: 'anthropic/claude-sonnet-4-5',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAA' },
      ],
      store: false,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: 'session-1',
      reasoning: { effort: 'high', summary: 'auto' },
      text: { verbosity: 'low' },
      parallel_tool_calls: true,
    };
    expect(droppedOnTranslation('openai-responses', body)).toEqual(['include', 'prompt_cache_key', 'reasoning.summary', 'text.verbosity', 'input[].reasoning']);
  });

  it('ignores fields sent as null (the SDKs send some that way)', () => {
    expect(droppedOnTranslation('openai-chat', { model: 'm', messages: [], seed: null, logprobs: undefined })).toEqual([]);
    expect(droppedOnTranslation('openai-chat', { model: 'm', messages: [], seed: 7, prompt_cache_key: 'k' })).toEqual(['seed', 'prompt_cache_key']);
  });
});

describe('reasoningOfThinking', () => {
  it.each([
    [{ type: 'disabled' }, 'none'],
    [{ type: 'enabled', budget_tokens: 1024 }, 'low'],
    [{ type: 'enabled', budget_tokens: 8000 }, 'medium'],
    [{ type: 'enabled', budget_tokens: 32_000 }, 'high'],
    [{ type: 'adaptive' }, 'medium'],
    [{ type: 'something-new' }, undefined],
    [undefined, undefined],
    [null, undefined],
  ])('%j → %s', (thinking, level) => {
    expect(reasoningOfThinking(thinking as never)).toBe(level);
  });
});
