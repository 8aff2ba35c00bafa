import { randomBytes } from 'node:crypto';
import type { CachedCompletion, StoredResponseItem } from '../../ports/state-store.js';
import type { TranslatedCall } from './translated-call.js';
import { imageUrlRefusal, isDataUrl, isHttpUrl, type ImageUrlPolicy } from './image-url-policy.js';
import {
  openAiReasoning,
  openAiToolChoice,
  toChatCall,
  UnsupportedChatRequest,
  type OpenAiChatRequest,
  type OpenAiMessage,
  type OpenAiToolCall,
} from './openai-chat-request.js';

/**
 * The part of an OpenAI Responses API request (`POST /v1/responses`) the gateway understands; the
 * schema (schemas/http/generation/response-create-request.json) checks shapes, every other field
 * OpenAI defines is accepted and ignored.
 */
export interface ResponsesRequest {
  readonly model: string;
  readonly input?: string | readonly StoredResponseItem[];
  readonly instructions?: string | null;
  readonly tools?: readonly Readonly<Record<string, unknown>>[];
  readonly tool_choice?: string | Readonly<Record<string, unknown>>;
  readonly parallel_tool_calls?: boolean | null;
  readonly text?: {
    readonly format?: { readonly type: string; readonly name?: string; readonly schema?: Record<string, unknown> };
    readonly verbosity?: string | null;
  };
  readonly max_output_tokens?: number | null;
  readonly temperature?: number | null;
  readonly top_p?: number | null;
  readonly metadata?: Readonly<Record<string, string>> | null;
  readonly user?: string;
  readonly reasoning?: Readonly<Record<string, unknown>> | null;
  readonly stream?: boolean | null;
  readonly store?: boolean | null;
  readonly previous_response_id?: string | null;
}

/** Fields of the request the response object echoes (and a stored response keeps). */
const echoedFields = [
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'text',
  'max_output_tokens',
  'temperature',
  'top_p',
  'metadata',
  'user',
  'reasoning',
  'store',
  'previous_response_id',
] as const;

/** Fields that never change the answer: who asks, how it travels, whether it is kept, the caller's own labels. */
const transportFields: ReadonlySet<string> = new Set(['stream', 'store', 'metadata', 'user']);

/** A new id as OpenAI shapes them: a prefix and 48 hex digits. */
export function newResponseId(prefix: 'resp' | 'msg' | 'fc' | 'fco' | 'item'): string {
  return `${prefix}_${randomBytes(24).toString('hex')}`;
}

export function echoedRequestOf(request: ResponsesRequest): Readonly<Record<string, unknown>> {
  const source = request as unknown as Readonly<Record<string, unknown>>;
  return Object.fromEntries(echoedFields.filter((field) => source[field] !== undefined).map((field) => [field, source[field]]));
}

/**
 * The response cache's key source of a Responses request: under a field of its own, so no chat
 * completions request (whose fields sit at the top) can ever share its key.
 */
export function responsesCacheKeySource(request: ResponsesRequest): Readonly<Record<string, unknown>> {
  const answerFields = Object.fromEntries(Object.entries(request).filter(([field]) => !transportFields.has(field)));
  return { 'openai.responses': answerFields };
}

const itemPrefixes: Readonly<Record<string, 'msg' | 'fc' | 'fco'>> = { message: 'msg', function_call: 'fc', function_call_output: 'fco' };

/**
 * The request's input as items, each with an `id` (OpenAI's listing pages by item id): a string
 * becomes one user message; an easy message (`{role, content}`) gets `type: 'message'` and its
 * string content becomes one text part.
 */
export function inputItemsOf(input: ResponsesRequest['input']): StoredResponseItem[] {
  if (input === undefined) return [];
  if (typeof input === 'string') return [{ id: newResponseId('msg'), type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  return input.map((item) => {
    const type = typeof item['type'] === 'string' ? item['type'] : 'message';
    const id = typeof item['id'] === 'string' && item['id'] !== '' ? item['id'] : newResponseId(itemPrefixes[type] ?? 'item');
    if (type !== 'message') return { ...item, id, type, ...(type.startsWith('function_call') && item['status'] === undefined ? { status: 'completed' } : {}) };
    const content =
      typeof item['content'] === 'string' ? [{ type: item['role'] === 'assistant' ? 'output_text' : 'input_text', text: item['content'] }] : item['content'];
    return { ...item, id, type, content, ...(item['status'] === undefined ? { status: 'completed' } : {}) };
  });
}

type ChatPart = { type: string; text?: string; image_url?: { url: string } };

function imagePartOf(part: Readonly<Record<string, unknown>>, param: string, policy: ImageUrlPolicy): ChatPart {
  const url = part['image_url'];
  if (typeof url !== 'string' || url === '')
    throw new UnsupportedChatRequest('an input_image needs image_url (a base64 data URL); file_id is not supported', `${param}.image_url`);
  if (isDataUrl(url)) return { type: 'image_url', image_url: { url } };
  if (!policy.allowImageUrls) throw imageUrlRefusal('send the image as a base64 data URL (data:image/png;base64,…)', `${param}.image_url`);
  if (!isHttpUrl(url)) throw new UnsupportedChatRequest('an image URL must be an http(s) URL or a base64 data URL', `${param}.image_url`);
  return { type: 'image_url', image_url: { url } };
}

function chatPartsOf(item: StoredResponseItem, param: string, policy: ImageUrlPolicy): ChatPart[] {
  const content = Array.isArray(item['content']) ? (item['content'] as readonly Readonly<Record<string, unknown>>[]) : [];
  return content.map((part, index) => {
    const type = String(part['type']);
    if ((type === 'input_text' || type === 'output_text') && typeof part['text'] === 'string') return { type: 'text', text: part['text'] };
    if (type === 'refusal' && typeof part['refusal'] === 'string') return { type: 'text', text: part['refusal'] };
    if (type === 'input_image') return imagePartOf(part, `${param}.content[${index}]`, policy);
    throw new UnsupportedChatRequest(`content part type "${type}" is not supported (text and images are)`, `${param}.content[${index}]`);
  });
}

function outputTextOf(output: unknown): string {
  if (typeof output === 'string') return output;
  if (!Array.isArray(output)) return '';
  return (output as readonly Readonly<Record<string, unknown>>[])
    .filter((part) => typeof part['text'] === 'string')
    .map((part) => part['text'] as string)
    .join('\n');
}

type ChatMessage = { role: OpenAiMessage['role']; content: string | null | ChatPart[]; tool_calls?: OpenAiToolCall[]; tool_call_id?: string };

/**
 * Chat messages for Responses items: messages keep their role, a `function_call` joins the
 * assistant turn before it (or starts one), a `function_call_output` becomes a tool message. Item
 * kinds no provider can take (item references, reasoning, hosted tools' calls) are left out.
 */
export function chatMessagesOf(items: readonly StoredResponseItem[], policy: ImageUrlPolicy = { allowImageUrls: false }): ChatMessage[] {
  const messages: ChatMessage[] = [];
  items.forEach((item, index) => {
    const param = `input[${index}]`;
    if (item['type'] === 'message') {
      const role = item['role'] as OpenAiMessage['role'];
      messages.push({ role, content: chatPartsOf(item, param, policy) });
    } else if (item['type'] === 'function_call') {
      const call: OpenAiToolCall = {
        id: String(item['call_id'] ?? item['id']),
        type: 'function',
        function: { name: String(item['name'] ?? ''), arguments: String(item['arguments'] ?? '{}') },
      };
      const last = messages.at(-1);
      if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (item['type'] === 'function_call_output') {
      if (typeof item['call_id'] !== 'string') throw new UnsupportedChatRequest('a function_call_output needs its call_id', `${param}.call_id`);
      messages.push({ role: 'tool', tool_call_id: item['call_id'], content: outputTextOf(item['output']) });
    }
  });
  return messages;
}

/** The chat tools of a Responses request: flat function tools as chat's nested ones, narrowed by an `allowed_tools` choice. */
function chatToolsOf(request: ResponsesRequest): { tools: unknown[]; ignored: string[] } {
  const choice = request.tool_choice;
  const named = new Set<string>();
  if (typeof choice === 'object' && choice['type'] === 'allowed_tools' && Array.isArray(choice['tools']))
    for (const tool of choice['tools'] as readonly Readonly<Record<string, unknown>>[]) if (typeof tool['name'] === 'string') named.add(tool['name']);
  const tools: unknown[] = [];
  const ignored: string[] = [];
  for (const tool of request.tools ?? []) {
    if (tool['type'] !== 'function' || typeof tool['name'] !== 'string') {
      ignored.push(String(tool['type']));
      continue;
    }
    if (named.size > 0 && !named.has(tool['name'])) continue;
    const description = typeof tool['description'] === 'string' ? { description: tool['description'] } : {};
    const parameters = typeof tool['parameters'] === 'object' && tool['parameters'] !== null ? { parameters: tool['parameters'] } : {};
    tools.push({ type: 'function', function: { name: tool['name'], ...description, ...parameters } });
  }
  return { tools, ignored };
}

/**
 * The chat request's `tool_choice` for a Responses one: the same words and a function by name;
 * `allowed_tools` (already narrowing the tools) by its `mode` (`auto` or `required`).
 */
function chatToolChoiceOf(request: ResponsesRequest): OpenAiChatRequest['tool_choice'] {
  const choice = request.tool_choice;
  if (typeof choice === 'object' && choice['type'] === 'allowed_tools') return choice['mode'] === 'required' ? 'required' : 'auto';
  if (typeof choice === 'object' && choice['type'] !== 'function') return undefined; // hosted tools' choices: no provider here serves them
  return openAiToolChoice(choice, 'tool_choice') === undefined ? undefined : choice;
}

function responseFormatOf(request: ResponsesRequest): OpenAiChatRequest['response_format'] {
  const format = request.text?.format;
  if (format?.type === 'json_schema')
    return {
      type: 'json_schema',
      json_schema: { ...(format.name !== undefined ? { name: format.name } : {}), ...(format.schema !== undefined ? { schema: format.schema } : {}) },
    };
  if (format?.type === 'json_object') return { type: 'json_object' };
  return undefined;
}

/** What a Responses request becomes for the generation use case. */
export interface MappedResponsesRequest {
  /** The provider-protocol layer's request, as a chat completions request's becomes it. */
  readonly call: TranslatedCall;
  /** The prompt as chat messages (route rules estimate its tokens from its JSON). */
  readonly prompt: unknown;
  /** Tool types no provider can serve, dropped from the request. */
  readonly ignoredTools: readonly string[];
}

/**
 * The provider-protocol layer's request of a Responses request over the whole conversation (`items`: a
 * `previous_response_id` chain's items, then this turn's): `instructions` becomes the system
 * prompt, the items the chat messages of /v1/chat/completions, mapped the same way from there.
 * `top_p`, `tool_choice`, `parallel_tool_calls` and `reasoning.effort` are passed on to the provider
 * (which leaves out what its API does not take). Image URLs (not data URLs) are refused unless the
 * policy allows them.
 *
 * @throws UnsupportedChatRequest for content the gateway cannot send (files, audio) or a
 * conversation that does not end with a user message or a function call's output.
 */
export function toResponsesCall(
  request: ResponsesRequest,
  items: readonly StoredResponseItem[],
  policy: ImageUrlPolicy = { allowImageUrls: false },
): MappedResponsesRequest {
  const instructions =
    typeof request.instructions === 'string' && request.instructions !== '' ? [{ role: 'system' as const, content: request.instructions }] : [];
  const messages = [...instructions, ...chatMessagesOf(items, policy)];
  if (messages.length === 0) throw new UnsupportedChatRequest('input is required', 'input');
  const { tools, ignored } = chatToolsOf(request);
  const responseFormat = responseFormatOf(request);
  const toolChoice = tools.length > 0 ? chatToolChoiceOf(request) : undefined;
  const effort = openAiReasoning(request.reasoning?.['effort'], 'reasoning.effort');
  const chat: OpenAiChatRequest = {
    model: request.model,
    messages: messages as unknown as OpenAiMessage[],
    ...(typeof request.temperature === 'number' ? { temperature: request.temperature } : {}),
    ...(typeof request.top_p === 'number' ? { top_p: request.top_p } : {}),
    ...(typeof request.max_output_tokens === 'number' ? { max_tokens: request.max_output_tokens } : {}),
    ...(responseFormat !== undefined ? { response_format: responseFormat } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(toolChoice !== undefined ? { tool_choice: toolChoice } : {}),
    ...(tools.length > 0 && typeof request.parallel_tool_calls === 'boolean' ? { parallel_tool_calls: request.parallel_tool_calls } : {}),
    ...(effort !== undefined ? { reasoning_effort: effort } : {}),
  };
  return { call: toChatCall(chat, policy), prompt: messages, ignoredTools: ignored };
}

/**
 * The output items of an answer: its text as one assistant message (unless the answer is only
 * tool calls), then one `function_call` item per call, each with a new id.
 */
export function responseOutputOf(answer: CachedCompletion, messageId: string): StoredResponseItem[] {
  const incomplete = answer.finishReason === 'length' || answer.finishReason === 'content_filter';
  const message =
    answer.content !== '' || answer.toolCalls.length === 0
      ? [
          {
            id: messageId,
            type: 'message',
            status: incomplete ? 'incomplete' : 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: answer.content, annotations: [], logprobs: [] }],
          },
        ]
      : [];
  const calls = answer.toolCalls.map((call) => ({
    id: newResponseId('fc'),
    type: 'function_call',
    status: 'completed',
    call_id: call.id,
    name: call.function.name,
    arguments: call.function.arguments,
  }));
  return [...message, ...calls];
}
