/** OpenAI's finish reasons, as the gateway answers them. */
export type OpenAiFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/**
 * A finished chat answer of the gateway as the response cache keeps it (issue 14): what both the
 * plain and the streamed wire forms are built from, so either can be replayed from either.
 * Tool-call answers are kept too: for one request they are as deterministic as text (the client
 * runs the calls, the gateway never does), and replaying the same call ids is what the client saw
 * the first time.
 */
export interface CachedCompletion {
  /** The provider and model that answered (what a hit's `llm.call` record and headers name). */
  readonly provider: string;
  readonly model: string;
  /** The text, or the structured answer as JSON text; '' when the answer is only tool calls. */
  readonly content: string;
  readonly toolCalls: readonly OpenAiToolCall[];
  readonly finishReason: OpenAiFinishReason;
  readonly usage: CompletionUsage;
  /**
   * An answer the gateway passed through natively (issue 34), kept as its provider sent it: replayed
   * unchanged to a request of the same wire and form (plain or streamed); `content` is '' then.
   */
  readonly native?: CachedNativeAnswer;
}

/** A natively forwarded answer as received: a JSON body's text, or a stream's events in order. */
export interface CachedNativeAnswer {
  /** `anthropic-messages`, `openai-responses` or `openai-chat`. */
  readonly wire: string;
  readonly streamed: boolean;
  readonly contentType?: string;
  readonly body?: string;
  readonly events?: readonly { readonly event?: string; readonly data: string }[];
  /** A chat stream: whether its request asked for a usage chunk (`stream_options.include_usage`), which the events then carry. */
  readonly includeUsage?: boolean;
}

/**
 * What an answer consumed, as every wire reports it: `inputTokens` counts every input token, the
 * cache fields the part the provider read from or wrote to its prompt cache (absent: none), so each
 * wire can say them in its own fields (chat `prompt_tokens_details.cached_tokens`, Responses
 * `input_tokens_details.cached_tokens`, Messages `cache_read_input_tokens` with `input_tokens` the
 * uncached rest). The shape of the generation domain's `TokenUsage`, kept here because ports import
 * no feature folder.
 */
export interface CompletionUsage {
  readonly inputTokens: number;
  /** Reasoning tokens included. */
  readonly outputTokens: number;
  readonly totalTokens: number;
  /** Part of `inputTokens` read from the provider's prompt cache. */
  readonly cacheReadTokens?: number;
  /** Part of `inputTokens` written to the prompt cache with the default (5-minute) lifetime. */
  readonly cacheWriteTokens?: number;
  /** Part of `inputTokens` written to the prompt cache with a 1-hour lifetime. */
  readonly cacheWrite1hTokens?: number;
  /** Part of `outputTokens` the model spent reasoning. */
  readonly reasoningTokens?: number;
}

/**
 * A tool call of a cached answer, in OpenAI's wire shape (what the gateway answered, replayed as is);
 * src/generation/gateway/openai-chat-request.ts re-exports it as the request's tool-call type.
 */
export interface OpenAiToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** Where one cached answer lives: always under its merchant, so two merchants never share an entry. */
export interface ResponseCacheKey {
  readonly merchantId: string;
  /** SHA-256 (hex) of the normalized request (src/generation/gateway/response-cache-key.ts). */
  readonly requestHash: string;
}

/**
 * Finished chat answers of the OpenAI-compatible gateway, by merchant and normalized request, each
 * for the TTL of the key that stored it. Entries are the answer's content, tool calls, finish
 * reason, usage and model, never wire bytes, so a streamed request can be answered from a plain
 * answer and the other way round.
 *
 * @remarks A cache, not a store of record: an entry may be gone before its TTL (the embedded
 * adapter evicts the least recently used beyond its bounds, Redis under memory pressure), and the
 * gateway treats a failed read as a miss. No delete or listing: nothing needs them, and a key's TTL
 * bounds how long an answer is reused.
 */
export interface ResponseCache {
  /** The answer stored under `key`, or undefined when there is none or it expired. */
  get(key: ResponseCacheKey): Promise<CachedCompletion | undefined>;
  /** Stores (or replaces) the answer under `key` for `ttlS` seconds. */
  set(key: ResponseCacheKey, value: CachedCompletion, ttlS: number): Promise<void>;
}
