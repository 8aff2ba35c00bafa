import type { CachedCompletion } from '../../ports/state-store.js';
import type { GenerateResult } from '../generate-result.js';
import { openAiFinishReason, openAiToolCalls } from './openai-chat-request.js';

/**
 * A finished answer in the form the response cache keeps and every wire renders: `content` is the
 * text the client saw (the structured answer as JSON for a plain request; what a stream's pieces
 * joined to for a streamed one).
 */
export function completionOf(result: Pick<GenerateResult, 'provider' | 'model' | 'toolCalls' | 'finishReason' | 'usage'>, content: string): CachedCompletion {
  return {
    provider: result.provider,
    model: result.model,
    content,
    toolCalls: openAiToolCalls(result.toolCalls),
    finishReason: result.toolCalls.length > 0 ? 'tool_calls' : openAiFinishReason(result.finishReason),
    usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens, totalTokens: result.usage.totalTokens },
  };
}
