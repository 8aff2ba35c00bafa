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

/**
 * The usage object in Anthropic's split: `input_tokens` is the uncached rest of the prompt (the
 * gateway's `inputTokens` counts every input token), `cache_read_input_tokens` and
 * `cache_creation_input_tokens` the parts read from and written to the prompt cache, the writes split
 * by lifetime in `cache_creation`; counts the wire does not know are null, as Anthropic sends them.
 */
export function anthropicUsage(
  usage: Pick<CachedCompletion['usage'], 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'cacheWrite1hTokens'>,
) {
  const read = usage.cacheReadTokens ?? 0;
  const write5m = usage.cacheWriteTokens ?? 0;
  const write1h = usage.cacheWrite1hTokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.inputTokens - read - write5m - write1h),
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: write5m + write1h,
    cache_read_input_tokens: read,
    cache_creation: { ephemeral_5m_input_tokens: write5m, ephemeral_1h_input_tokens: write1h },
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
