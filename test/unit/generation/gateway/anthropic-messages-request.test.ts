import { describe, expect, it } from 'vitest';
import {
  anthropicProviderHeaders,
  anthropicStopReason,
  estimateMessagesInputTokens,
  messagesCacheKeySource,
  messagesGenerateOptions,
  type AnthropicMessagesRequest,
} from '../../../../src/generation/gateway/anthropic-messages-request.js';
import { SwitchyardError } from '../../../../src/errors/switchyard-error.js';

const strict = { allowImageUrls: false };
const base: AnthropicMessagesRequest = { model: 'openai/gpt-4o-mini', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };

function refusal(request: AnthropicMessagesRequest, policy = strict): { code: string; param: unknown } {
  try {
    messagesGenerateOptions(request, policy);
  } catch (error) {
    if (!SwitchyardError.isInstance(error)) throw error;
    return { code: error.code, param: error.details?.['param'] };
  }
  throw new Error('not refused');
}

describe('messagesGenerateOptions', () => {
  it('maps system blocks, system-role messages, history and the last user text', () => {
    const options = messagesGenerateOptions(
      {
        ...base,
        system: [{ type: 'text', text: 'be brief' }],
        temperature: 0.2,
        messages: [
          { role: 'system', content: 'and kind' },
          { role: 'user', content: 'first' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', text: 'hidden' },
              { type: 'text', text: 'answer' },
            ],
          },
          { role: 'user', content: [{ type: 'text', text: 'second' }] },
        ],
      },
      strict,
    );
    expect(options).toMatchObject({
      systemPrompt: 'be brief\n\nand kind',
      input: { text: 'second' },
      conversationHistory: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'answer' },
      ],
      temperature: 0.2,
      maxTokens: 16,
      disableTools: true,
    });
  });

  it('turns tool_use blocks into tool calls and tool_result blocks into tool turns named after their call', () => {
    const options = messagesGenerateOptions(
      {
        ...base,
        tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'sunny' }], is_error: false }] },
        ],
      },
      strict,
    );
    expect(options.input).toBeUndefined();
    expect(options.clientTools).toEqual([{ name: 'get_weather', parameters: { type: 'object' } }]);
    expect(options.conversationHistory).toEqual([
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: '', toolCalls: [{ toolCallId: 'toolu_1', toolName: 'get_weather', args: { city: 'Paris' } }] },
      { role: 'tool', toolCallId: 'toolu_1', toolName: 'get_weather', content: 'sunny' },
    ]);
  });

  it('passes tool_choice on with the tools: none, any as required, tool by name, disable_parallel_tool_use as parallelToolCalls false', () => {
    const tools = [{ name: 't' }];
    const none = messagesGenerateOptions({ ...base, tools, tool_choice: { type: 'none' } }, strict);
    expect(none.clientTools).toEqual([{ name: 't' }]);
    expect(none.toolChoice).toBe('none');
    expect(messagesGenerateOptions({ ...base, tools, tool_choice: { type: 'any' } }, strict)).toMatchObject({ toolChoice: 'required' });
    const named = messagesGenerateOptions({ ...base, tools, tool_choice: { type: 'tool', name: 't', disable_parallel_tool_use: true } }, strict);
    expect(named).toMatchObject({ toolChoice: { toolName: 't' }, parallelToolCalls: false });
    expect(messagesGenerateOptions({ ...base, tool_choice: { type: 'any' } }, strict).toolChoice).toBeUndefined();
    expect(refusal({ ...base, tools, tool_choice: { type: 'tool' } })).toEqual({ code: 'SY_GATEWAY_REQUEST_UNSUPPORTED', param: 'tool_choice.name' });
  });

  it('passes stop_sequences, top_p and top_k on', () => {
    expect(messagesGenerateOptions({ ...base, stop_sequences: ['X'], top_p: 0.5, top_k: 3 }, strict)).toMatchObject({
      stopSequences: ['X'],
      topP: 0.5,
      topK: 3,
    });
  });

  it('forwards anthropic-version and anthropic-beta to an Anthropic upstream only', () => {
    expect(anthropicProviderHeaders({ 'anthropic-version': '2023-06-01', 'anthropic-beta': ['a', 'b'], 'x-api-key': 'secret' })).toEqual({
      providerHeaders: { anthropic: { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'a,b' } },
    });
    expect(anthropicProviderHeaders({ authorization: 'Bearer x' })).toEqual({});
  });

  it('passes base64 images as data URLs; URLs only when allowed', () => {
    const image = (source: Record<string, string>) => ({
      ...base,
      messages: [
        {
          role: 'user' as const,
          content: [
            { type: 'image', source: source as never },
            { type: 'text', text: 'what?' },
          ],
        },
      ],
    });
    expect(messagesGenerateOptions(image({ type: 'base64', media_type: 'image/png', data: 'AAAA' }), strict).images).toEqual(['data:image/png;base64,AAAA']);
    expect(refusal(image({ type: 'url', url: 'https://example.com/a.png' }))).toEqual({
      code: 'SY_GATEWAY_REQUEST_UNSUPPORTED',
      param: 'messages[0].content[0].source',
    });
    expect(messagesGenerateOptions(image({ type: 'url', url: 'https://example.com/a.png' }), { allowImageUrls: true }).images).toEqual([
      'https://example.com/a.png',
    ]);
  });

  it('refuses server tools, documents and a conversation that does not end with the user', () => {
    expect(refusal({ ...base, tools: [{ name: 'bash', type: 'bash_20250124' }] })).toEqual({ code: 'SY_GATEWAY_REQUEST_UNSUPPORTED', param: 'tools[0].type' });
    expect(refusal({ ...base, messages: [{ role: 'user', content: [{ type: 'document' }] }] }).param).toBe('messages[0].content[0].type');
    expect(
      refusal({
        ...base,
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'prefill' },
        ],
      }).param,
    ).toBe('messages');
  });
});

describe('the rest of the Messages mapping', () => {
  it('keys the cache under its own wrapper, without stream and metadata', () => {
    expect(messagesCacheKeySource({ ...base, stream: true, metadata: { user_id: 'u' } })).toEqual({
      anthropic_messages: { model: base.model, max_tokens: 16, messages: base.messages },
    });
  });

  it('maps finish reasons to stop reasons and estimates input tokens', () => {
    expect(['stop', 'length', 'tool_calls', 'content_filter'].map((reason) => anthropicStopReason(reason as never))).toEqual([
      'end_turn',
      'max_tokens',
      'tool_use',
      'refusal',
    ]);
    expect(estimateMessagesInputTokens({ messages: [{ role: 'user', content: 'x'.repeat(400) }] })).toBeGreaterThanOrEqual(100);
  });
});
