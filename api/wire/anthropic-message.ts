import { anthropicStopReason } from '../../src/generation/gateway/anthropic-messages-request.js';
import type { CachedCompletion } from '../../src/ports/state/response-cache.js';

/**
 * Anthropic's Messages wire forms of one finished answer (the `message` object and its content
 * blocks), shared by fresh answers, streams and answers replayed from the response cache, so the
 * official client cannot tell them apart.
 */

export interface AnthropicTextBlock {
  readonly type: 'text';
  readonly text: string;
  readonly citations: null;
}

export interface AnthropicToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly caller: { readonly type: 'direct' };
}

/** The usage object; counts the wire does not know are null, as Anthropic sends them. */
export function anthropicUsage(usage: Pick<CachedCompletion['usage'], 'inputTokens' | 'outputTokens'>) {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: null,
    cache_read_input_tokens: null,
    cache_creation: null,
    output_tokens_details: null,
    server_tool_use: null,
    service_tier: 'standard',
    inference_geo: null,
    speed: null,
  };
}

function inputOf(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args || '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    // Arguments a provider sent that are not JSON cannot be an Anthropic `input`: the call comes with none.
    return {};
  }
}

/** The tool_use blocks of an answer's tool calls (the client runs them). */
export function toolUseBlocks(answer: Pick<CachedCompletion, 'toolCalls'>): AnthropicToolUseBlock[] {
  return answer.toolCalls.map((call) => ({
    type: 'tool_use',
    id: call.id,
    name: call.function.name,
    input: inputOf(call.function.arguments),
    caller: { type: 'direct' },
  }));
}

/** The content blocks of an answer: its text (when it has any), then its tool calls. */
export function contentBlocks(answer: Pick<CachedCompletion, 'content' | 'toolCalls'>): (AnthropicTextBlock | AnthropicToolUseBlock)[] {
  const text: AnthropicTextBlock[] = answer.content !== '' || answer.toolCalls.length === 0 ? [{ type: 'text', text: answer.content, citations: null }] : [];
  return [...text, ...toolUseBlocks(answer)];
}

/** The head of a message, before any content (a stream's `message_start` carries it). */
export function messageHead(id: string, model: string) {
  return { id, type: 'message', role: 'assistant', model, stop_sequence: null, stop_details: null, container: null, diagnostics: null };
}

/** The `message` body of an answer. */
export function anthropicMessageBody(id: string, answer: CachedCompletion) {
  return {
    ...messageHead(id, answer.model),
    content: contentBlocks(answer),
    stop_reason: anthropicStopReason(answer.finishReason),
    usage: anthropicUsage(answer.usage),
  };
}
