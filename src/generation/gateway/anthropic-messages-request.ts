import type { CachedCompletion } from '../../ports/state/response-cache.js';
import type { CallControls, ReasoningLevel, ToolChoice } from '../call-controls.js';
import type { PromptCacheMark } from '../language-model-client.js';
import { imageUrlRefusal, isHttpUrl, type ImageUrlPolicy } from './image-url-policy.js';
import { UnsupportedChatRequest } from './openai-chat-request.js';
import { estimatePromptTokens } from './route-rules.js';
import { translatedCallOf, type TranslatedCall, type TranslatedTool, type TranslatedTurn } from './translated-call.js';

/**
 * The part of an Anthropic Messages request (`POST /v1/messages`, `/v1/messages/count_tokens`) the
 * gateway understands; the schema checks shapes. `stop_sequences`, `top_p`, `top_k` and
 * `tool_choice` are passed on to the provider; fields no provider layer takes here (`thinking`,
 * `output_config`, …) are accepted and not passed on.
 */
export interface AnthropicMessagesRequest {
  readonly model: string;
  readonly messages: readonly AnthropicMessageParam[];
  readonly system?: string | readonly AnthropicBlockParam[];
  /** Required on `/v1/messages` (the schema says so); absent on count_tokens. */
  readonly max_tokens?: number;
  readonly tools?: readonly AnthropicToolParam[];
  readonly tool_choice?: { readonly type: 'auto' | 'any' | 'tool' | 'none'; readonly name?: string; readonly disable_parallel_tool_use?: boolean };
  readonly stop_sequences?: readonly string[];
  readonly temperature?: number;
  readonly top_p?: number;
  readonly top_k?: number;
  readonly metadata?: { readonly user_id?: string | null };
  readonly stream?: boolean;
  /** Extended thinking: passed as is to an Anthropic upstream; mapped to a reasoning effort on a translated route. */
  readonly thinking?: { readonly type: string; readonly budget_tokens?: number };
}

export interface AnthropicMessageParam {
  readonly role: 'user' | 'assistant' | 'system';
  readonly content: string | readonly AnthropicBlockParam[];
}

/** One content block as sent: text, image, tool_use, tool_result (thinking blocks are dropped). */
export interface AnthropicBlockParam {
  readonly type: string;
  readonly text?: string;
  readonly source?: { readonly type: string; readonly media_type?: string; readonly data?: string; readonly url?: string };
  readonly id?: string;
  readonly name?: string;
  readonly input?: unknown;
  readonly tool_use_id?: string;
  readonly content?: string | readonly AnthropicBlockParam[];
  readonly is_error?: boolean;
  /** A prompt-cache breakpoint after this block. */
  readonly cache_control?: { readonly type?: string; readonly ttl?: string } | null;
}

export interface AnthropicToolParam {
  readonly name: string;
  readonly description?: string;
  readonly input_schema?: Readonly<Record<string, unknown>>;
  /** Absent, null or `custom` for a client tool; a server tool (`bash_20250124`, `web_search_…`) otherwise. */
  readonly type?: string | null;
}

/** How the Messages wire is mapped: image URLs are refused unless the operator allows them (GATEWAY_ALLOW_IMAGE_URLS). */
export type MessagesMappingPolicy = ImageUrlPolicy;

/** Block types carrying a model's hidden reasoning: dropped from the history (no provider here replays them). */
const droppedBlocks = new Set(['thinking', 'redacted_thinking']);

interface UserParts {
  readonly texts: string[];
  readonly images: string[];
  readonly results: { readonly toolCallId: string; readonly content: string }[];
}

function imageOf(block: AnthropicBlockParam, param: string, policy: MessagesMappingPolicy): string {
  const source = block.source;
  if (source?.type === 'base64' && typeof source.data === 'string' && typeof source.media_type === 'string')
    return `data:${source.media_type};base64,${source.data}`;
  if (source?.type === 'url' && typeof source.url === 'string') {
    if (!policy.allowImageUrls) throw imageUrlRefusal('send the image as base64 (source.type "base64")', `${param}.source`);
    if (!isHttpUrl(source.url)) throw new UnsupportedChatRequest('an image URL must be an http(s) URL', `${param}.source.url`);
    return source.url;
  }
  throw new UnsupportedChatRequest(`image source type "${String(source?.type)}" is not supported: send base64`, `${param}.source`);
}

/** The text of a tool_result's content (a string or text blocks). */
function toolResultText(block: AnthropicBlockParam, param: string): string {
  const content = block.content;
  if (content === undefined) return '';
  const text =
    typeof content === 'string'
      ? content
      : content
          .map((part, index) => {
            if (part.type === 'text' && typeof part.text === 'string') return part.text;
            throw new UnsupportedChatRequest(`tool_result content of type "${part.type}" is not supported`, `${param}.content[${index}]`);
          })
          .join('\n');
  return block.is_error === true ? `Error: ${text}` : text;
}

function userPartsOf(content: string | readonly AnthropicBlockParam[], param: string, policy: MessagesMappingPolicy): UserParts {
  const parts: UserParts = { texts: [], images: [], results: [] };
  if (typeof content === 'string') {
    parts.texts.push(content);
    return parts;
  }
  content.forEach((block, index) => {
    const at = `${param}[${index}]`;
    if (block.type === 'text' && typeof block.text === 'string') parts.texts.push(block.text);
    else if (block.type === 'image') parts.images.push(imageOf(block, at, policy));
    else if (block.type === 'tool_result' && typeof block.tool_use_id === 'string')
      parts.results.push({ toolCallId: block.tool_use_id, content: toolResultText(block, at) });
    else if (!droppedBlocks.has(block.type))
      throw new UnsupportedChatRequest(`content block type "${block.type}" is not supported in a user message`, `${at}.type`);
  });
  return parts;
}

function assistantTurnOf(content: string | readonly AnthropicBlockParam[], param: string, namesByCallId: Map<string, string>): TranslatedTurn {
  if (typeof content === 'string') return { role: 'assistant', content };
  const texts: string[] = [];
  const toolCalls: { toolCallId: string; toolName: string; args: Record<string, unknown> }[] = [];
  content.forEach((block, index) => {
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
      namesByCallId.set(block.id, block.name);
      const args = typeof block.input === 'object' && block.input !== null && !Array.isArray(block.input) ? (block.input as Record<string, unknown>) : {};
      toolCalls.push({ toolCallId: block.id, toolName: block.name, args });
    } else if (!droppedBlocks.has(block.type)) {
      throw new UnsupportedChatRequest(`content block type "${block.type}" is not supported in an assistant message`, `${param}[${index}].type`);
    }
  });
  return toolCalls.length > 0 ? { role: 'assistant', content: texts.join('\n'), toolCalls } : { role: 'assistant', content: texts.join('\n') };
}

function systemTextOf(system: AnthropicMessagesRequest['system']): string | undefined {
  if (system === undefined) return undefined;
  const text = typeof system === 'string' ? system : system.map((block) => block.text ?? '').join('\n');
  return text === '' ? undefined : text;
}

function clientToolsOf(request: AnthropicMessagesRequest): TranslatedTool[] {
  return (request.tools ?? []).map((tool, index) => {
    if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom')
      throw new UnsupportedChatRequest(`server tool type "${tool.type}" is not supported: declare client tools (name, input_schema)`, `tools[${index}].type`);
    return {
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      ...(tool.input_schema !== undefined ? { parameters: tool.input_schema } : {}),
    };
  });
}

/**
 * Anthropic's `tool_choice` in the toolkit's terms: `auto`, `any` (some tool: `required`), `tool`
 * (the one named), `none`; `disable_parallel_tool_use` as `parallelToolCalls: false`.
 */
function toolControlsOf(request: AnthropicMessagesRequest): CallControls {
  const choice = request.tool_choice;
  if (choice === undefined || (request.tools ?? []).length === 0) return {};
  if (choice.type === 'tool' && (typeof choice.name !== 'string' || choice.name === ''))
    throw new UnsupportedChatRequest('tool_choice of type "tool" needs the name of one of the tools', 'tool_choice.name');
  const toolChoice: ToolChoice = choice.type === 'tool' ? { toolName: choice.name as string } : choice.type === 'any' ? 'required' : choice.type;
  return { toolChoice, ...(choice.disable_parallel_tool_use === true ? { parallelToolCalls: false } : {}) };
}

/**
 * Anthropic's `thinking` as the toolkit's reasoning effort, for a target that is not Anthropic's own
 * wire: `disabled` is `none`; a budget is graded (under 4,096 tokens `low`, under 16,384 `medium`,
 * else `high`); `adaptive` leaves the depth to the model (`medium`). Each provider maps the effort
 * onto its own form (OpenAI's `reasoning_effort`, Bedrock's reasoning config) or leaves it out.
 */
export function reasoningOfThinking(thinking: AnthropicMessagesRequest['thinking']): ReasoningLevel | undefined {
  // The schema leaves `thinking` unchecked (it is Anthropic's to judge on the native route).
  if (typeof thinking !== 'object' || thinking === null) return undefined;
  if (thinking.type === 'disabled') return 'none';
  if (thinking.type === 'enabled' && typeof thinking.budget_tokens === 'number')
    return thinking.budget_tokens < 4096 ? 'low' : thinking.budget_tokens < 16_384 ? 'medium' : 'high';
  if (thinking.type === 'adaptive' || thinking.type === 'enabled') return 'medium';
  return undefined;
}

/** `stop_sequences`, `top_p` and `top_k`, passed on as they are. */
function samplingControlsOf(request: AnthropicMessagesRequest): CallControls {
  const reasoning = reasoningOfThinking(request.thinking);
  return {
    ...(reasoning !== undefined ? { reasoning } : {}),
    ...(request.stop_sequences !== undefined && request.stop_sequences.length > 0 ? { stopSequences: request.stop_sequences } : {}),
    ...(request.top_p !== undefined ? { topP: request.top_p } : {}),
    ...(request.top_k !== undefined ? { topK: request.top_k } : {}),
  };
}

interface MappedConversation {
  readonly system: string[];
  /** A breakpoint on a system block (top-level `system` or a system-role message). */
  readonly systemCache: PromptCacheMark | undefined;
  readonly turns: TranslatedTurn[];
  readonly lastUserImages: string[];
}

/**
 * The prompt-cache breakpoint of a message's content: its last block marked with `cache_control`
 * (`ttl` kept when it is one Anthropic names). The translation marks the whole turn, so the cached
 * prefix ends with that turn rather than at the block: at most a few tokens later.
 */
function cacheMarkOf(content: string | readonly AnthropicBlockParam[] | undefined): PromptCacheMark | undefined {
  if (content === undefined || typeof content === 'string') return undefined;
  const marked = content.filter((block) => typeof block.cache_control === 'object' && block.cache_control !== null).at(-1);
  if (marked === undefined) return undefined;
  const ttl = marked.cache_control?.ttl;
  return ttl === '5m' || ttl === '1h' ? { ttl } : {};
}

function withMark<T extends TranslatedTurn>(turn: T, mark: PromptCacheMark | undefined): T {
  return mark === undefined ? turn : { ...turn, cacheControl: mark };
}

function conversationOf(request: AnthropicMessagesRequest, policy: MessagesMappingPolicy): MappedConversation {
  const system: string[] = [];
  const systemText = systemTextOf(request.system);
  if (systemText !== undefined) system.push(systemText);
  let systemCache = typeof request.system === 'string' ? undefined : cacheMarkOf(request.system);
  const turns: TranslatedTurn[] = [];
  const namesByCallId = new Map<string, string>();
  let lastUserImages: string[] = [];
  request.messages.forEach((message, index) => {
    const param = `messages[${index}].content`;
    const mark = cacheMarkOf(message.content);
    if (message.role === 'assistant') {
      turns.push(withMark(assistantTurnOf(message.content, param, namesByCallId), mark));
      return;
    }
    const parts = userPartsOf(message.content, param, policy);
    if (message.role === 'system') {
      system.push(parts.texts.join('\n'));
      systemCache = mark ?? systemCache;
      return;
    }
    const results = parts.results.map(
      (result): TranslatedTurn => ({
        role: 'tool',
        toolCallId: result.toolCallId,
        toolName: namesByCallId.get(result.toolCallId) ?? 'tool',
        content: result.content,
      }),
    );
    const hasText = parts.texts.length > 0 || parts.results.length === 0;
    // The message's breakpoint goes on the last turn it becomes.
    for (const [at, turn] of results.entries()) turns.push(!hasText && at === results.length - 1 ? withMark(turn, mark) : turn);
    if (hasText) {
      turns.push(withMark({ role: 'user', content: parts.texts.join('\n') }, mark));
      lastUserImages = parts.images;
    }
  });
  return { system, systemCache, turns, lastUserImages };
}

/**
 * The provider-protocol layer's request for an Anthropic Messages request: `system` (and
 * system-role messages) become the system prompt, the last user message ends the conversation;
 * tool_use blocks become the assistant's tool calls and tool_result blocks tool turns, as on chat
 * completions (the client runs its tools; the gateway runs none of its own). `cache_control` marks
 * become the port's prompt-cache breakpoints; `headers` (the client's `anthropic-version` and
 * `anthropic-beta`, ./anthropicUpstreamHeaders) go to an Anthropic candidate only.
 *
 * @throws UnsupportedChatRequest (400 invalid_request_error) for what the gateway does not serve:
 * server tools, documents, image URLs (unless allowed), a conversation not ending with the user.
 */
export function messagesCall(request: AnthropicMessagesRequest, policy: MessagesMappingPolicy, headers: Readonly<Record<string, string>> = {}): TranslatedCall {
  const clientTools = clientToolsOf(request);
  const { system, systemCache, turns, lastUserImages } = conversationOf(request, policy);
  const last = turns.at(-1);
  if (last === undefined || last.role === 'assistant')
    throw new UnsupportedChatRequest('the conversation must end with a user message (text or tool_result blocks)', 'messages');
  return translatedCallOf({
    ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
    systemCache,
    history: last.role === 'user' ? turns.slice(0, -1) : turns,
    ...(last.role === 'user' ? { input: { text: last.content, images: lastUserImages, cacheControl: last.cacheControl } } : {}),
    allowImageUrls: policy.allowImageUrls,
    temperature: request.temperature,
    maxTokens: request.max_tokens,
    clientTools,
    controls: {
      ...samplingControlsOf(request),
      ...toolControlsOf(request),
      ...(Object.keys(headers).length > 0 ? { providerHeaders: { anthropic: headers } } : {}),
    },
  });
}

/** The client's request headers an Anthropic upstream gets too: the API version and the beta features it asked for. */
const forwardedHeaders = ['anthropic-version', 'anthropic-beta'] as const;

/**
 * The headers of a Messages request forwarded to an Anthropic upstream (and to no other provider
 * kind): `anthropic-version` and `anthropic-beta`, as the client sent them (repeated headers joined
 * with commas, as HTTP allows).
 */
export function anthropicUpstreamHeaders(headers: Readonly<Record<string, string | readonly string[] | undefined>>): Record<string, string> {
  const forwarded: Record<string, string> = {};
  for (const name of forwardedHeaders) {
    const value = headers[name];
    const text = typeof value === 'string' ? value : value?.join(',');
    if (text !== undefined && text.trim() !== '') forwarded[name] = text.trim();
  }
  return forwarded;
}

/**
 * What the response cache keys a Messages request by: its generation fields under a wrapper no
 * other wire sends (so a Messages answer never answers a chat completion), without the transport
 * fields `stream` and `metadata`.
 */
export function messagesCacheKeySource(request: AnthropicMessagesRequest): Readonly<Record<string, unknown>> {
  const { stream: _stream, metadata: _metadata, ...generation } = request;
  return { anthropic_messages: generation };
}

/** The prompt of a Messages request as route rules and budget reservations read it (its JSON). */
export function messagesPrompt(request: Pick<AnthropicMessagesRequest, 'system' | 'messages' | 'tools'>): unknown {
  return { system: request.system ?? null, messages: request.messages, tools: request.tools ?? null };
}

/** The input tokens of a Messages request by the registry's heuristic (~4 characters a token). */
export function estimateMessagesInputTokens(request: Pick<AnthropicMessagesRequest, 'system' | 'messages' | 'tools'>): number {
  return estimatePromptTokens(JSON.stringify(messagesPrompt(request)));
}

export type AnthropicStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

/** Anthropic's stop_reason for an answer's (OpenAI-shaped) finish reason. */
export function anthropicStopReason(finishReason: CachedCompletion['finishReason']): AnthropicStopReason {
  switch (finishReason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}
