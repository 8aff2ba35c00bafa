import { describe, expect, it } from 'vitest';
import {
  anthropicStopReason,
  anthropicUpstreamHeaders,
  estimateMessagesInputTokens,
  messagesCacheKeySource,
  messagesCall,
  type AnthropicMessagesRequest,
} from '../../../../src/generation/gateway/anthropic-messages-request.js';
import { SwitchyardError } from '../../../../src/errors/switchyard-error.js';

const strict = { allowImageUrls: false };
const base: AnthropicMessagesRequest = { model: 'openai/gpt-4o-mini', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };

function refusal(request: AnthropicMessagesRequest, policy = strict): { code: string; param: unknown } {
  try {
    messagesCall(request, policy);
  } catch (error) {
    if (!SwitchyardError.isInstance(error)) throw error;
    return { code: error.code, param: error.details?.['param'] };
  }
  throw new Error('not refused');
}

describe('messagesCall', () => {
  it('maps system blocks, system-role messages, history and the last user text', () => {
    const { request } = messagesCall(
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
    expect(request).toMatchObject({
      system: 'be brief\n\nand kind',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'answer' },
        { role: 'user', content: 'second' },
      ],
      temperature: 0.2,
      maxTokens: 16,
    });
    // The gateway runs no tools of its own: only the client's are declared.
    expect(request.tools).toBeUndefined();
    expect(request.messages).toHaveLength(3);
  });

  it('turns tool_use blocks into tool calls and tool_result blocks into tool turns named after their call', () => {
    const { request } = messagesCall(
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
    // The conversation continues from the tool result: no user message of its own after it.
    expect(request.clientTools).toEqual([{ name: 'get_weather', description: '', inputSchema: { type: 'object' } }]);
    expect(request.messages).toEqual([
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: '', toolCalls: [{ toolCallId: 'toolu_1', toolName: 'get_weather', args: { city: 'Paris' } }] },
      { role: 'tool', toolCallId: 'toolu_1', toolName: 'get_weather', content: 'sunny' },
    ]);
  });

  it('passes tool_choice on with the tools: none, any as required, tool by name, disable_parallel_tool_use as parallelToolCalls false', () => {
    const tools = [{ name: 't' }];
    const none = messagesCall({ ...base, tools, tool_choice: { type: 'none' } }, strict).request;
    expect(none.clientTools).toEqual([{ name: 't', description: '', inputSchema: { type: 'object', properties: {} } }]);
    expect(none.toolChoice).toBe('none');
    expect(messagesCall({ ...base, tools, tool_choice: { type: 'any' } }, strict).request).toMatchObject({ toolChoice: 'required' });
    const named = messagesCall({ ...base, tools, tool_choice: { type: 'tool', name: 't', disable_parallel_tool_use: true } }, strict).request;
    expect(named).toMatchObject({ toolChoice: { toolName: 't' }, parallelToolCalls: false });
    expect(messagesCall({ ...base, tool_choice: { type: 'any' } }, strict).request.toolChoice).toBeUndefined();
    expect(refusal({ ...base, tools, tool_choice: { type: 'tool' } })).toEqual({ code: 'SY_GATEWAY_REQUEST_UNSUPPORTED', param: 'tool_choice.name' });
  });

  it('passes stop_sequences, top_p and top_k on', () => {
    expect(messagesCall({ ...base, stop_sequences: ['X'], top_p: 0.5, top_k: 3 }, strict).request).toMatchObject({
      stopSequences: ['X'],
      topP: 0.5,
      topK: 3,
    });
  });

  it('forwards anthropic-version and anthropic-beta to an Anthropic upstream only', () => {
    const headers = anthropicUpstreamHeaders({ 'anthropic-version': '2023-06-01', 'anthropic-beta': ['a', 'b'], 'x-api-key': 'secret' });
    expect(messagesCall(base, strict, headers).request.providerHeaders).toEqual({
      anthropic: { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'a,b' },
    });
    expect(anthropicUpstreamHeaders({ authorization: 'Bearer x' })).toEqual({});
    expect(messagesCall(base, strict, anthropicUpstreamHeaders({ authorization: 'Bearer x' })).request.providerHeaders).toBeUndefined();
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
    expect(messagesCall(image({ type: 'base64', media_type: 'image/png', data: 'AAAA' }), strict).request.messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'what?' },
      { type: 'image', dataUrl: 'data:image/png;base64,AAAA' },
    ]);
    expect(refusal(image({ type: 'url', url: 'https://example.com/a.png' }))).toEqual({
      code: 'SY_GATEWAY_REQUEST_UNSUPPORTED',
      param: 'messages[0].content[0].source',
    });
    expect(messagesCall(image({ type: 'url', url: 'https://example.com/a.png' }), { allowImageUrls: true }).request.messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'what?' },
      { type: 'image-url', url: 'https://example.com/a.png' },
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
