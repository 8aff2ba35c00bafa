import { APICallError } from '@ai-sdk/provider';
import { AIProviderError } from '../../generation/errors/ai-provider-error.js';
import type {
  ChatMessage,
  LanguageModelClient,
  ModelCallRequest,
  ModelCallResult,
  ModelStream,
  TokenUsage,
  ToolCallRecord,
} from '../../generation/language-model-client.js';
import type { ProviderName } from '../../generation/provider-name.js';
import { queuedModelStream } from './delta-queue.js';
import type { ProviderOverrides } from '../../generation/provider-definition.js';
import { mapProviderError, providerMessage } from './map-provider-error.js';
import { headersOf, readBody, readText } from './http-body.js';
import { postJson, type PostedExchange } from './post-json.js';
import { createNativeWireClient, type NativeEndpoint } from './native-wire-client.js';
import type { NativeWire } from '../../generation/native-wire.js';

export interface OpenAiChatWireOptions {
  readonly provider: ProviderName;
  readonly modelId: string;
  /** Where chat completions are posted, e.g. `https://api.openai.com/v1/chat/completions`. */
  readonly url: string;
  /** Credentials, sent on every request (`authorization: Bearer …`, Azure's `api-key`); empty for servers without keys. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Makes the AI SDK client of the same model, which serves every request this one does not speak.
   * Called at the first such request, not before: most calls never need it.
   */
  readonly fallback: () => LanguageModelClient;
  /** How long the provider may stay silent on a call without a deadline; default 300 s. */
  readonly silenceLimitMs?: number;
}

/** How long a provider may stay silent on a call: undici's headers and body timeouts, which fetch applies. */
const defaultSilenceLimitMs = 300_000;

/**
 * The `LanguageModelClient` for chat over OpenAI's Chat Completions wire: text messages (and the
 * tool turns of a conversation) in, text or a stream of it, usage and the calls of tools the caller
 * runs out, on node:http with pooled connections. Everything else (tools to execute here, structured
 * output, images, reasoning models' parameters) goes to the AI SDK client of the same model, which
 * speaks all of it.
 *
 * @remarks Why it exists: a gateway call spends most of its CPU in the AI SDK's request path
 * (fetch, web streams, response schemas) — about 5× a direct node:http call — and the plain chat
 * it forwards needs none of that. Failures become the same `APICallError`s the AI SDK throws, so
 * `mapProviderError` maps both paths alike and one contract suite checks both.
 */
export function createOpenAiChatWireClient(options: OpenAiChatWireOptions): LanguageModelClient {
  const { provider, modelId } = options;
  let sdkClient: LanguageModelClient | undefined;
  const fallback = (): LanguageModelClient => (sdkClient ??= options.fallback());
  const url = new URL(options.url);
  const toError = (error: unknown): AIProviderError => mapProviderError(provider, error);
  const silenceLimitMs = options.silenceLimitMs ?? defaultSilenceLimitMs;

  /**
   * Sends one request; resolves with the provider's 2xx answer, rejects with an APICallError
   * otherwise. The signal destroys the exchange until `release` is called (once the answer is
   * read): a signal aborted later, as deadlines are when a call ends, must not take the pooled
   * connection with it.
   */
  async function send(
    body: Record<string, unknown>,
    signal: AbortSignal | undefined,
    extraHeaders: Readonly<Record<string, string>> = {},
  ): Promise<PostedExchange> {
    const exchange = await postJson(url, JSON.stringify(body), { ...extraHeaders, ...options.headers }, signal, silenceLimitMs);
    const { response, release } = exchange;
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return exchange;
    const text = await readText(response, signal).finally(release);
    throw new APICallError({
      message: providerMessage(text) ?? `status ${status}`,
      url: url.href,
      requestBodyValues: body,
      statusCode: status,
      responseHeaders: headersOf(response),
      responseBody: text,
    });
  }

  async function generate(request: ModelCallRequest): Promise<ModelCallResult> {
    try {
      const { response, release } = await send(chatBody(provider, modelId, request, false), request.abortSignal, request.headers);
      const answer = parseAnswer(provider, await readText(response, request.abortSignal).finally(release));
      const choice = answer.choices[0];
      return {
        text: choice?.message?.content ?? '',
        usage: usageOf(answer.usage),
        finishReason: finishReasonOf(choice?.finish_reason, choice?.message?.refusal),
        toolCalls: declaresTools(request) ? toolCallsOf(provider, choice?.message?.tool_calls ?? []) : [],
        toolResults: [],
        modelId: answer.model || modelId,
      };
    } catch (error) {
      throw toError(error);
    }
  }

  function stream(request: ModelCallRequest): ModelStream {
    return queuedModelStream(async (queue) => {
      const { response, release } = await send(chatBody(provider, modelId, request, true), request.abortSignal, request.headers);
      try {
        const pieces: string[] = [];
        let usage: TokenUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
        let finishReason = 'other';
        let answeredModel = modelId;
        const events = new ServerSentData();
        const calls = new ToolCallAssembly();
        let done = false;
        const take = (payloads: readonly string[]) => {
          for (const data of payloads) {
            if (done || data === '[DONE]') {
              done = true;
              continue;
            }
            const chunk = parseChunk(provider, data);
            if (chunk.model) answeredModel = chunk.model;
            if (chunk.usage) usage = usageOf(chunk.usage);
            const choice = chunk.choices?.[0];
            const delta = choice?.delta?.content;
            if (typeof delta === 'string' && delta !== '') {
              pieces.push(delta);
              queue.push(delta);
            }
            for (const call of choice?.delta?.tool_calls ?? []) calls.add(call);
            if (choice?.finish_reason) finishReason = finishReasonOf(choice.finish_reason, choice.delta?.refusal);
          }
        };
        await readBody(response, request.abortSignal, (text) => take(events.push(text)));
        take(events.end());
        const toolCalls = declaresTools(request) ? toolCallsOf(provider, calls.calls()) : [];
        return { text: pieces.join(''), usage, finishReason, toolCalls, toolResults: [], modelId: answeredModel };
      } finally {
        release();
      }
    }, toError);
  }

  return {
    provider,
    modelId,
    supportsTools: true,
    generate: (request) => (speaksWire(request, modelId) ? generate(request) : fallback().generate(request)),
    stream: (request) => (speaksWire(request, modelId) ? stream(request) : fallback().stream(request)),
  };
}

/**
 * A provider's client for OpenAI-wire chat: this client, with the AI SDK client (made by `sdk`)
 * for what it does not speak, and the native pass-through of `native` (default: chat completions at
 * the same URL); the AI SDK client alone when a test hands in its own fetch (that
 * seam is the AI SDK's).
 */
export function openAiWireOrSdk(
  overrides: ProviderOverrides,
  sdk: () => LanguageModelClient,
  wire: Omit<OpenAiChatWireOptions, 'fallback'>,
  native: Readonly<Partial<Record<NativeWire, NativeEndpoint>>> = { 'openai-chat': { url: wire.url, headers: wire.headers } },
): LanguageModelClient {
  if (overrides.fetch !== undefined) return sdk();
  return {
    ...createOpenAiChatWireClient({ ...wire, fallback: sdk }),
    ...createNativeWireClient({ provider: wire.provider, modelId: wire.modelId, endpoints: native }),
  };
}

/**
 * Whether this client sends a request itself: text messages and the tool turns of a conversation,
 * tools the caller runs (declared, never executed here), no schema, and a model that takes
 * `temperature` and `max_tokens` (OpenAI's reasoning models want `max_completion_tokens` and no
 * temperature, which the AI SDK knows about). Tools to execute, structured output and images go to
 * the AI SDK client.
 */
function speaksWire(request: ModelCallRequest, modelId: string): boolean {
  if (request.schema !== undefined || (request.tools?.length ?? 0) > 0) return false;
  if (/^(o\d|gpt-5|codex)/i.test(modelId)) return false;
  return request.messages.every((message) => message.role === 'tool' || textOf(message) !== undefined);
}

const declaresTools = (request: ModelCallRequest): boolean => (request.clientTools?.length ?? 0) > 0;

/** A message's text, or `undefined` when it carries anything but text. */
function textOf(message: ChatMessage): string | undefined {
  if (message.role === 'tool') return message.content;
  if (typeof message.content === 'string') return message.content;
  let text = '';
  for (const part of message.content) {
    if (part.type !== 'text') return undefined;
    text += part.text;
  }
  return text;
}

function wireMessage(message: ChatMessage): Record<string, unknown> {
  if (message.role === 'tool') return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  const content = textOf(message) ?? '';
  if (message.role === 'assistant' && message.toolCalls !== undefined && message.toolCalls.length > 0) {
    return {
      role: 'assistant',
      content,
      tool_calls: message.toolCalls.map((call) => ({
        id: call.toolCallId,
        type: 'function',
        function: { name: call.toolName, arguments: JSON.stringify(call.args) },
      })),
    };
  }
  return { role: message.role, content };
}

function chatBody(provider: ProviderName, modelId: string, request: ModelCallRequest, streamed: boolean): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [];
  if (request.system !== undefined) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) messages.push(wireMessage(message));
  return {
    model: modelId,
    messages,
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
    ...(request.topP === undefined ? {} : { top_p: request.topP }),
    ...(request.stopSequences === undefined ? {} : { stop: request.stopSequences }),
    ...(request.reasoning === undefined || !takesReasoningEffort(provider) ? {} : { reasoning_effort: request.reasoning }),
    ...(declaresTools(request)
      ? {
          tools: request.clientTools!.map((tool) => ({
            type: 'function',
            function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
          })),
          ...wireToolChoice(request),
        }
      : {}),
    ...(streamed ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}

/**
 * Whether this client forwards `reasoning_effort`: OpenAI's and Azure's own models that reason go to
 * the AI SDK client (see `speaksWire`), so a model this client sends there does not reason and would
 * refuse the field; an OpenAI-compatible server (a LiteLLM proxy, vLLM, Ollama) takes or ignores it.
 */
function takesReasoningEffort(provider: ProviderName): boolean {
  return provider !== 'openai' && provider !== 'azure';
}

/** `tool_choice` and `parallel_tool_calls` of a request that declares tools (OpenAI refuses them without). */
function wireToolChoice(request: ModelCallRequest): Record<string, unknown> {
  const choice = request.toolChoice;
  return {
    ...(choice === undefined ? {} : { tool_choice: typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.toolName } } }),
    ...(request.parallelToolCalls === undefined ? {} : { parallel_tool_calls: request.parallelToolCalls }),
  };
}

interface WireToolCall {
  readonly id?: string | null;
  readonly function?: { readonly name?: string | null; readonly arguments?: string | null } | null;
}

/** A streamed tool call's pieces, by index: its id and name come first, its arguments in fragments. */
interface WireToolCallDelta extends WireToolCall {
  readonly index?: number | null;
}

/** The model's tool calls as the toolkit records them; arguments that are not JSON fail the call (retryable). */
function toolCallsOf(provider: ProviderName, calls: readonly WireToolCall[]): ToolCallRecord[] {
  return calls.map((call, index) => {
    const text = call.function?.arguments ?? '';
    const args = text.trim() === '' ? {} : parseObject(text);
    if (args === undefined)
      throw new AIProviderError(`${provider}: the model called ${call.function?.name ?? 'a tool'} with arguments that are not a JSON object`, provider, {
        isRetryable: true,
      });
    return { toolCallId: call.id ?? `call_${index}`, toolName: call.function?.name ?? '', args };
  });
}

/** Puts streamed tool-call deltas back together, in index order. */
class ToolCallAssembly {
  private readonly byIndex = new Map<number, { id?: string; name: string; arguments: string }>();

  add(delta: WireToolCallDelta): void {
    const index = delta.index ?? this.byIndex.size;
    const call = this.byIndex.get(index) ?? { name: '', arguments: '' };
    if (delta.id) call.id = delta.id;
    if (delta.function?.name) call.name += delta.function.name;
    if (delta.function?.arguments) call.arguments += delta.function.arguments;
    this.byIndex.set(index, call);
  }

  calls(): WireToolCall[] {
    return [...this.byIndex.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({ ...(call.id === undefined ? {} : { id: call.id }), function: { name: call.name, arguments: call.arguments } }));
  }
}

interface WireUsage {
  readonly prompt_tokens?: number | null;
  readonly completion_tokens?: number | null;
  readonly total_tokens?: number | null;
  /** The part of `prompt_tokens` read from the prompt cache (OpenAI, Azure, and the servers that copy them). */
  readonly prompt_tokens_details?: { readonly cached_tokens?: number | null } | null;
  /** The part of `completion_tokens` spent reasoning (o-series, gpt-5). */
  readonly completion_tokens_details?: { readonly reasoning_tokens?: number | null } | null;
  /** LiteLLM in front of Anthropic: the part of `prompt_tokens` written to the prompt cache. */
  readonly cache_creation_input_tokens?: number | null;
}

interface WireAnswer {
  readonly model?: string | null;
  readonly choices: readonly {
    readonly message?: { readonly content?: string | null; readonly refusal?: string | null; readonly tool_calls?: readonly WireToolCall[] | null } | null;
    readonly finish_reason?: string | null;
  }[];
  readonly usage?: WireUsage | null;
}

interface WireChunk {
  readonly model?: string | null;
  readonly choices?:
    | readonly {
        readonly delta?: {
          readonly content?: string | null;
          readonly refusal?: string | null;
          readonly tool_calls?: readonly WireToolCallDelta[] | null;
        } | null;
        readonly finish_reason?: string | null;
      }[]
    | null;
  readonly usage?: WireUsage | null;
  readonly error?: unknown;
}

/** A 2xx body that is not a chat completion is the provider misbehaving: retryable, as the AI SDK treats it. */
function parseAnswer(provider: ProviderName, text: string): WireAnswer {
  const parsed = parseObject(text);
  if (parsed === undefined || !Array.isArray(parsed['choices']))
    throw new AIProviderError(`${provider}: invalid chat completion: ${providerMessage(text) ?? 'empty body'}`, provider, { isRetryable: true });
  return parsed as unknown as WireAnswer;
}

function parseChunk(provider: ProviderName, data: string): WireChunk {
  const parsed = parseObject(data);
  if (parsed === undefined) throw new AIProviderError(`${provider}: invalid stream chunk: ${data.slice(0, 200)}`, provider, { isRetryable: true });
  if (parsed['error'] !== undefined && parsed['error'] !== null)
    throw new AIProviderError(`${provider}: the stream failed: ${providerMessage(data) ?? data.slice(0, 200)}`, provider, { isRetryable: true });
  return parsed as WireChunk;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A positive count, else absent (0, null or a non-number from a lenient server says nothing). */
function positive(value: number | null | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** `prompt_tokens` already counts the cached part (OpenAI's rule), so the cache fields are parts of `inputTokens`. */
function usageOf(usage: WireUsage | null | undefined): TokenUsage {
  const inputTokens = usage?.prompt_tokens ?? 0;
  const outputTokens = usage?.completion_tokens ?? 0;
  const cacheRead = positive(usage?.prompt_tokens_details?.cached_tokens);
  const cacheWrite = positive(usage?.cache_creation_input_tokens);
  const reasoning = positive(usage?.completion_tokens_details?.reasoning_tokens);
  return {
    inputTokens,
    outputTokens,
    totalTokens: usage?.total_tokens ?? inputTokens + outputTokens,
    ...(cacheRead !== undefined ? { cacheReadTokens: cacheRead } : {}),
    ...(cacheWrite !== undefined ? { cacheWriteTokens: cacheWrite } : {}),
    ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}),
  };
}

/** The AI SDK's names for OpenAI's finish reasons, so both paths report the same. */
function finishReasonOf(reason: string | null | undefined, refusal: string | null | undefined): string {
  switch (reason) {
    case 'stop':
      return refusal === undefined || refusal === null ? 'stop' : 'content-filter';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    case 'function_call':
    case 'tool_calls':
      return 'tool-calls';
    default:
      return 'other';
  }
}

/** Splits a server-sent event stream into the `data:` payload of each event, in order. */
class ServerSentData {
  private buffered = '';
  private data: string[] = [];

  /** The payloads of the events `text` completes. */
  push(text: string): string[] {
    const payloads: string[] = [];
    this.buffered += text;
    let newline = this.buffered.indexOf('\n');
    while (newline !== -1) {
      const line = this.buffered.slice(0, newline).replace(/\r$/, '');
      this.buffered = this.buffered.slice(newline + 1);
      if (line === '') {
        if (this.data.length > 0) payloads.push(this.data.join('\n'));
        this.data = [];
      } else if (line.startsWith('data:')) {
        this.data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      }
      newline = this.buffered.indexOf('\n');
    }
    return payloads;
  }

  /** The payload of an event the stream ended without closing (no blank line after it). */
  end(): string[] {
    const rest = this.push('\n\n');
    this.buffered = '';
    return rest;
  }
}
