import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../src/generation/errors/provider-errors.js';
import { toChatCall, type OpenAiChatRequest } from '../../../../src/generation/gateway/openai-chat-request.js';
import { toResponsesCall } from '../../../../src/generation/gateway/responses-request.js';

const base: OpenAiChatRequest = { model: 'anthropic/claude', messages: [{ role: 'user', content: 'hi' }] };

function optionAtFault(request: OpenAiChatRequest): string | undefined {
  try {
    toChatCall(request);
  } catch (error) {
    if (error instanceof InvalidRequestError) return error.option;
    throw error;
  }
  return undefined;
}

describe('toChatCall', () => {
  it('carries only what the client sent: no temperature, no output limit, no tools of the gateway', () => {
    const { request, schema } = toChatCall({ ...base, messages: [{ role: 'system', content: 'be brief' }, ...base.messages] });
    expect(request).toEqual({ system: 'be brief', messages: [{ role: 'user', content: 'hi' }] });
    expect(schema).toBeUndefined();
  });

  it('passes the sampling and length settings the client gave, max_completion_tokens before max_tokens', () => {
    const { request } = toChatCall({ ...base, temperature: 0.3, top_p: 0.9, max_tokens: 10, max_completion_tokens: 20, stop: 'END', reasoning_effort: 'low' });
    expect(request).toMatchObject({ temperature: 0.3, topP: 0.9, maxTokens: 20, stopSequences: ['END'], reasoning: 'low' });
  });

  it('checks a json_schema answer against its schema, and refuses a schema that does not compile', () => {
    const { request, schema } = toChatCall({
      ...base,
      response_format: { type: 'json_schema', json_schema: { schema: { type: 'object', required: ['a'] } } },
    });
    expect(request.schema).toEqual({ type: 'object', required: ['a'] });
    expect(schema?.check({ a: 1 })).toBeUndefined();
    expect(schema?.check({})).toBeDefined();
    expect(optionAtFault({ ...base, response_format: { type: 'json_schema', json_schema: { schema: { type: 'no-such-type' } } } })).toBe('schema');
  });

  it('refuses what the toolkit refused: an empty user message, an image that is no base64 data URL, a badly named tool', () => {
    expect(optionAtFault({ ...base, messages: [{ role: 'user', content: '  ' }] })).toBe('input.text');
    const image = (url: string): OpenAiChatRequest => ({
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what?' },
            { type: 'image_url', image_url: { url } },
          ],
        },
      ],
    });
    expect(optionAtFault(image('https://example.com/a.png'))).toBe('images[0]');
    expect(toChatCall(image('data:image/png;base64,AAAA')).request.messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'what?' },
      { type: 'image', dataUrl: 'data:image/png;base64,AAAA' },
    ]);
    expect(optionAtFault({ ...base, tools: [{ type: 'function', function: { name: 'has space' } }] })).toBe('clientTools[0].name');
  });

  it('continues a conversation from tool results without a user message of its own', () => {
    const { request } = toChatCall({
      ...base,
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'w', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: '', toolCalls: [{ toolCallId: 'c1', toolName: 'w', args: { city: 'Paris' } }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'w', content: 'sunny' },
    ]);
  });
});

describe('toResponsesCall', () => {
  it('maps instructions, input and max_output_tokens, adding nothing the client did not send', () => {
    const request = { model: 'anthropic/claude', instructions: 'be brief', input: 'hi', max_output_tokens: 50 };
    const mapped = toResponsesCall(request, [{ id: 'msg_1', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }]);
    expect(mapped.call.request).toEqual({ system: 'be brief', messages: [{ role: 'user', content: 'hi' }], maxTokens: 50 });
    expect(mapped.ignoredTools).toEqual([]);
  });
});
