import type { OpenAiToolCall } from './openai-chat-request.js';

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
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number; readonly totalTokens: number };
}
