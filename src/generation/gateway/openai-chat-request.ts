import type { OpenAiToolCall } from '../../ports/state/response-cache.js';
import { reasoningLevels, type CallControls, type ReasoningLevel, type ToolChoice } from '../call-controls.js';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import { translatedCallOf, type TranslatedCall, type TranslatedTurn } from './translated-call.js';

/** The part of an OpenAI chat-completions request the gateway understands (the schema checks shapes). */
export interface OpenAiChatRequest {
  readonly model: string;
  readonly messages: readonly OpenAiMessage[];
  readonly temperature?: number;
  readonly max_tokens?: number;
  readonly max_completion_tokens?: number;
  readonly stream?: boolean;
  readonly stream_options?: { readonly include_usage?: boolean };
  readonly response_format?: {
    readonly type: 'text' | 'json_object' | 'json_schema';
    readonly json_schema?: { readonly name?: string; readonly schema?: Record<string, unknown> };
  };
  readonly tools?: readonly unknown[];
  readonly tool_choice?: unknown;
  readonly parallel_tool_calls?: boolean | null;
  readonly top_p?: number | null;
  readonly stop?: string | readonly string[] | null;
  readonly reasoning_effort?: string | null;
  readonly user?: string;
}

export interface OpenAiMessage {
  readonly role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  readonly content: string | null | readonly { readonly type: string; readonly text?: string; readonly image_url?: { readonly url: string } }[];
  /** Assistant turns: the function calls the model made. */
  readonly tool_calls?: readonly OpenAiToolCall[];
  /** Tool turns: the call this result answers. */
  readonly tool_call_id?: string;
}

// The cached answer keeps tool calls in this same wire shape, so the response-cache port owns it.
export type { OpenAiToolCall };

interface OpenAiFunctionTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description?: string; readonly parameters?: Record<string, unknown> };
}

/**
 * A request the gateway cannot serve, with the field (OpenAI's `param`) it concerns. A coded error,
 * so every surface answers it from the one error table (400); the OpenAI wire names `param`.
 */
export class UnsupportedChatRequest extends SwitchyardError {
  constructor(
    message: string,
    readonly param: string,
  ) {
    super('SY_GATEWAY_REQUEST_UNSUPPORTED', { message, details: { param } });
    this.name = 'UnsupportedChatRequest';
  }
}

function textOf(message: OpenAiMessage, index: number): { text: string; images: string[] } {
  if (message.content === null) return { text: '', images: [] };
  if (typeof message.content === 'string') return { text: message.content, images: [] };
  const texts: string[] = [];
  const images: string[] = [];
  message.content.forEach((part, partIndex) => {
    if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    else if (part.type === 'image_url' && part.image_url !== undefined) images.push(part.image_url.url);
    else throw new UnsupportedChatRequest(`content part type "${part.type}" is not supported`, `messages[${index}].content[${partIndex}].type`);
  });
  return { text: texts.join('\n'), images };
}

/**
 * The provider-protocol layer's request for an OpenAI chat request: system and developer messages
 * become the system prompt, the last message (a user's, or tool results) ends the conversation.
 * Only what the client sent is sent on (no toolkit default); the client's tools are declared, the
 * gateway runs none of its own.
 *
 * @throws UnsupportedChatRequest for what the gateway does not serve (tools other than functions,
 * content parts other than text and images) or a conversation that does not end with a user or
 * tool message; `InvalidRequestError` for what the toolkit's checks refuse (translated-call.ts).
 */
export function toChatCall(request: OpenAiChatRequest, policy: { readonly allowImageUrls: boolean } = { allowImageUrls: false }): TranslatedCall {
  const clientTools = (request.tools ?? []).map((tool, index) => {
    const declared = tool as Partial<OpenAiFunctionTool>;
    if (declared.type !== 'function' || typeof declared.function?.name !== 'string')
      throw new UnsupportedChatRequest('only function tools are supported', `tools[${index}]`);
    return {
      name: declared.function.name,
      ...(declared.function.description !== undefined ? { description: declared.function.description } : {}),
      ...(declared.function.parameters !== undefined ? { parameters: declared.function.parameters } : {}),
    };
  });
  const system: string[] = [];
  const turns: TranslatedTurn[] = [];
  const namesByCallId = new Map<string, string>();
  let lastUserImages: string[] = [];
  request.messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const callId = message.tool_call_id;
      if (callId === undefined) throw new UnsupportedChatRequest('a tool message needs tool_call_id', `messages[${index}].tool_call_id`);
      turns.push({ role: 'tool', toolCallId: callId, toolName: namesByCallId.get(callId) ?? 'tool', content: textOf(message, index).text });
      return;
    }
    const { text, images } = textOf(message, index);
    if (message.role === 'system' || message.role === 'developer') {
      system.push(text);
    } else if (message.role === 'assistant') {
      const toolCalls = (message.tool_calls ?? []).map((call, callIndex) => {
        namesByCallId.set(call.id, call.function.name);
        let args: unknown;
        try {
          args = JSON.parse(call.function.arguments || '{}');
        } catch {
          throw new UnsupportedChatRequest('function arguments must be JSON', `messages[${index}].tool_calls[${callIndex}].function.arguments`);
        }
        return { toolCallId: call.id, toolName: call.function.name, args: (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown> };
      });
      turns.push(toolCalls.length > 0 ? { role: 'assistant', content: text, toolCalls } : { role: 'assistant', content: text });
    } else {
      turns.push({ role: 'user', content: text });
      lastUserImages = images;
    }
  });
  const last = turns.at(-1);
  if (last === undefined || last.role === 'assistant') throw new UnsupportedChatRequest('the conversation must end with a user or tool message', 'messages');
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  const schema =
    request.response_format?.type === 'json_schema'
      ? request.response_format.json_schema?.schema
      : request.response_format?.type === 'json_object'
        ? { type: 'object' }
        : undefined;
  return translatedCallOf({
    ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
    history: last.role === 'user' ? turns.slice(0, -1) : turns,
    ...(last.role === 'user' ? { input: { text: last.content, images: lastUserImages } } : {}),
    allowImageUrls: policy.allowImageUrls,
    temperature: request.temperature,
    maxTokens,
    schema,
    clientTools,
    controls: chatControlsOf(request),
  });
}

/** OpenAI's `tool_choice` (`auto`, `none`, `required`, `{type: 'function', function: {name}}`) as the toolkit's. */
export function openAiToolChoice(choice: unknown, param = 'tool_choice'): ToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice;
  const named = choice as { type?: unknown; name?: unknown; function?: { name?: unknown } };
  const name = typeof named.function?.name === 'string' ? named.function.name : named.name;
  if (typeof choice === 'object' && named.type === 'function' && typeof name === 'string' && name !== '') return { toolName: name };
  throw new UnsupportedChatRequest('tool_choice must be "auto", "none", "required" or a function tool by name', param);
}

/** OpenAI's `reasoning_effort` (or the Responses API's `reasoning.effort`) as the toolkit's level. */
export function openAiReasoning(effort: unknown, param: string): ReasoningLevel | undefined {
  if (effort === undefined || effort === null) return undefined;
  if ((reasoningLevels as readonly unknown[]).includes(effort)) return effort as ReasoningLevel;
  throw new UnsupportedChatRequest(`reasoning effort must be one of ${reasoningLevels.join(', ')}`, param);
}

/** `top_p`, `stop`, `tool_choice`, `parallel_tool_calls` and `reasoning_effort`: passed on to the provider. */
function chatControlsOf(request: OpenAiChatRequest): CallControls {
  const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  const toolChoice = openAiToolChoice(request.tool_choice);
  const reasoning = openAiReasoning(request.reasoning_effort, 'reasoning_effort');
  return {
    ...(typeof request.top_p === 'number' ? { topP: request.top_p } : {}),
    ...(stop !== undefined && stop !== null && stop.length > 0 ? { stopSequences: stop } : {}),
    ...(toolChoice !== undefined ? { toolChoice } : {}),
    ...(typeof request.parallel_tool_calls === 'boolean' ? { parallelToolCalls: request.parallel_tool_calls } : {}),
    ...(reasoning !== undefined ? { reasoning } : {}),
  };
}

/** OpenAI's `tool_calls` for the calls of the model (the client runs them). */
export function openAiToolCalls(
  calls: readonly { readonly toolCallId: string; readonly toolName: string; readonly args: Readonly<Record<string, unknown>> }[],
): OpenAiToolCall[] {
  return calls.map((call) => ({ id: call.toolCallId, type: 'function', function: { name: call.toolName, arguments: JSON.stringify(call.args) } }));
}

/** OpenAI's finish_reason for the AI SDK's. */
export function openAiFinishReason(reason: string): 'stop' | 'length' | 'tool_calls' | 'content_filter' {
  switch (reason) {
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'tool_calls';
    case 'content-filter':
      return 'content_filter';
    default:
      return 'stop';
  }
}
