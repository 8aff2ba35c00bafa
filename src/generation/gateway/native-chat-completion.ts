import type { CachedCompletion, OpenAiFinishReason, OpenAiToolCall } from '../../ports/state-store.js';
import type { NativeWireEvent } from '../native-wire.js';

type Json = Readonly<Record<string, unknown>>;

const finishReasons: ReadonlySet<string> = new Set(['stop', 'length', 'tool_calls', 'content_filter']);

/** What the response cache renders a chat answer from (text, tool calls, finish reason), read from a passed-through chat completion. */
export type ChatAnswerParts = Pick<CachedCompletion, 'content' | 'toolCalls' | 'finishReason'>;

function parse(text: string): Json | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Json) : undefined;
  } catch {
    return undefined;
  }
}

const finishOf = (reason: unknown): OpenAiFinishReason => (typeof reason === 'string' && finishReasons.has(reason) ? (reason as OpenAiFinishReason) : 'stop');

/** A plain chat completion's first choice, as the response cache keeps answers. */
export function chatAnswerOfBody(body: string): ChatAnswerParts {
  const choice = ((parse(body)?.['choices'] as Json[] | undefined) ?? [])[0];
  const message = choice?.['message'] as Json | undefined;
  const calls = Array.isArray(message?.['tool_calls']) ? (message['tool_calls'] as OpenAiToolCall[]) : [];
  return { content: typeof message?.['content'] === 'string' ? message['content'] : '', toolCalls: calls, finishReason: finishOf(choice?.['finish_reason']) };
}

/** A streamed chat completion's first choice put back together (text, tool calls by index, finish reason). */
export function chatAnswerOfEvents(events: readonly NativeWireEvent[]): ChatAnswerParts {
  let content = '';
  let finishReason: OpenAiFinishReason = 'stop';
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  for (const event of events) {
    const choice = ((parse(event.data)?.['choices'] as Json[] | undefined) ?? [])[0];
    const delta = choice?.['delta'] as Json | undefined;
    if (typeof delta?.['content'] === 'string') content += delta['content'];
    for (const call of Array.isArray(delta?.['tool_calls']) ? (delta['tool_calls'] as Json[]) : []) {
      const index = typeof call['index'] === 'number' ? call['index'] : calls.size;
      const known = calls.get(index) ?? { id: '', name: '', arguments: '' };
      const fn = call['function'] as Json | undefined;
      if (typeof call['id'] === 'string') known.id = call['id'];
      if (typeof fn?.['name'] === 'string') known.name += fn['name'];
      if (typeof fn?.['arguments'] === 'string') known.arguments += fn['arguments'];
      calls.set(index, known);
    }
    if (choice?.['finish_reason'] !== undefined && choice['finish_reason'] !== null) finishReason = finishOf(choice['finish_reason']);
  }
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, call]): OpenAiToolCall => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
  return { content, toolCalls, finishReason };
}
