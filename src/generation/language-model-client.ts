import type { CompletionUsage } from '../ports/state/response-cache.js';
import type { CallControls } from './call-controls.js';
import type { ProviderName } from './provider-name.js';
import type { JsonSchema, ToolDefinition } from './tool-definition.js';

/** A part of a user message: text, or an image as a base64 data URL or (when the caller allows them) an http(s) URL (vision models). */
export type MessagePart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly dataUrl: string }
  | { readonly type: 'image-url'; readonly url: string };

/**
 * A prompt-cache breakpoint: the prompt up to and including the marked part is a prefix the
 * provider may cache (Anthropic's `cache_control`, Bedrock's `cachePoint`); `ttl` as Anthropic
 * names it (default 5 minutes). Providers that cache on their own (OpenAI) or not at all ignore it.
 */
export interface PromptCacheMark {
  readonly ttl?: '5m' | '1h';
}

export type ChatMessage = (
  | { readonly role: 'user'; readonly content: string | readonly MessagePart[] }
  | { readonly role: 'assistant'; readonly content: string | readonly MessagePart[]; readonly toolCalls?: readonly ToolCallRecord[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly toolName: string; readonly content: string }
) & { readonly cacheControl?: PromptCacheMark };

/** A tool declared to the model but run by the caller (no `execute` here). */
export interface DeclaredTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

/**
 * Everything one model call needs, already validated (and, for the toolkit, defaulted: the
 * gateway's requests carry only what its client sent). The sampling and
 * tool-use controls go to the provider as its wire takes them (an adapter leaves out what its API
 * does not take); `headers` are extra request headers for this provider only.
 */
export interface ModelCallRequest extends Omit<CallControls, 'providerHeaders'> {
  readonly messages: readonly ChatMessage[];
  readonly system?: string;
  /** A prompt-cache breakpoint after the system prompt. */
  readonly systemCacheControl?: PromptCacheMark;
  /** Absent when the caller gave `topP` and no temperature (the provider's default then). */
  readonly temperature?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Absent when the caller gave none (a gateway client) and the provider's API takes a call without one. */
  readonly maxTokens?: number;
  /** Offered to the model; empty or absent means no tools. */
  readonly tools?: readonly ToolDefinition[];
  /** Tools the caller runs: their calls end the call and come back in `toolCalls`. */
  readonly clientTools?: readonly DeclaredTool[];
  /** Upper bound on model↔tool round trips (default 5). */
  readonly maxSteps: number;
  /** Structured output: the model must answer with JSON matching this schema. */
  readonly schema?: JsonSchema;
  readonly abortSignal?: AbortSignal;
  /** Tools the caller granted (by name) for `requiresConfirmation` tools. */
  readonly confirmedTools?: ReadonlySet<string>;
}

/**
 * What a call consumed: `inputTokens` counts every input token, cached or not, and the cache and
 * reasoning fields say which part of it the provider read from or wrote to its prompt cache and
 * spent reasoning. One shape with the response cache's (the port owns it, as ports import no
 * feature folder).
 */
export type TokenUsage = CompletionUsage;

export interface ToolCallRecord {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly args: Record<string, unknown>;
}

export interface ToolResultRecord {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly output: unknown;
  readonly durationMs: number;
  readonly success: boolean;
}

export interface ModelCallResult {
  readonly text: string;
  /** The parsed object when `schema` was given (already validated against it). */
  readonly object?: unknown;
  readonly usage: TokenUsage;
  readonly finishReason: string;
  readonly toolCalls: readonly ToolCallRecord[];
  readonly toolResults: readonly ToolResultRecord[];
  /** The model id the provider reports (may differ from the one asked for). */
  readonly modelId: string;
}

/** A streamed call: text deltas as they come, and the whole result once the stream has ended. */
export interface ModelStream {
  readonly textStream: AsyncIterable<string>;
  /** Settles after `textStream` ends; rejects with the same error the stream failed with. */
  readonly result: Promise<ModelCallResult>;
}

/**
 * A request whose input tokens the provider itself is asked to count, in the shape of its own wire's
 * count endpoint (`anthropic-messages`: the body of Anthropic's `POST /v1/messages/count_tokens`,
 * whose `model` the client replaces by its own).
 */
export interface NativeTokenCountRequest {
  readonly wire: 'anthropic-messages';
  readonly body: Readonly<Record<string, unknown>>;
  /** Extra request headers for the provider (e.g. a client's `anthropic-version`, `anthropic-beta`). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly abortSignal?: AbortSignal;
}

/**
 * The port between the generation domain and one configured model of one provider. Adapters in
 * `src/adapters/llm/` implement it over the AI SDK (or by hand for SageMaker). A client whose
 * provider speaks a gateway wire natively also implements `NativeWireClient` (./native-wire.ts).
 *
 * @remarks Every failure is thrown (or rejected) as one of the toolkit's errors
 * (`AIProviderError` and subclasses), mapped at the adapter edge from the provider's real
 * status and body, so the domain's fallback logic can trust `isRetryable`.
 */
export interface LanguageModelClient {
  readonly provider: ProviderName;
  readonly modelId: string;
  /** Whether this provider/model executes tool calls (graded full/partial in docs; here a yes/no). */
  readonly supportsTools: boolean;
  generate(request: ModelCallRequest): Promise<ModelCallResult>;
  stream(request: ModelCallRequest): ModelStream;
  /**
   * The provider's own count of a request's input tokens; absent on providers without a counting
   * endpoint, `undefined` for a wire this provider does not speak. Rejects as `generate` does.
   */
  countInputTokens?(request: NativeTokenCountRequest): Promise<number | undefined>;
}
