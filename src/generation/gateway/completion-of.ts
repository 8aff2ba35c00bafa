import type { CachedCompletion, CompletionUsage } from '../../ports/state-store.js';
import type { ModelCallResult, TokenUsage } from '../language-model-client.js';
import { openAiFinishReason, openAiToolCalls } from './openai-chat-request.js';

/**
 * A finished answer in the form the response cache keeps and every wire renders: `content` is the
 * text the client saw (the structured answer as JSON for a plain request; what a stream's pieces
 * joined to for a streamed one); `model` the one that answered.
 */
export function completionOf(
  result: Pick<ModelCallResult, 'toolCalls' | 'finishReason' | 'usage'> & { readonly provider: string; readonly model: string },
  content: string,
): CachedCompletion {
  return {
    provider: result.provider,
    model: result.model,
    content,
    toolCalls: openAiToolCalls(result.toolCalls),
    finishReason: result.toolCalls.length > 0 ? 'tool_calls' : openAiFinishReason(result.finishReason),
    usage: completionUsageOf(result.usage),
  };
}

/**
 * The counts of a call's usage an answer keeps: tokens (a total the provider left out is input plus
 * output), and the prompt-cache and reasoning parts the provider reported.
 */
export function completionUsageOf(usage: TokenUsage): CompletionUsage {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.totalTokens || usage.inputTokens + usage.outputTokens,
    ...(usage.cacheReadTokens ? { cacheReadTokens: usage.cacheReadTokens } : {}),
    ...(usage.cacheWriteTokens ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
    ...(usage.cacheWrite1hTokens ? { cacheWrite1hTokens: usage.cacheWrite1hTokens } : {}),
    ...(usage.reasoningTokens ? { reasoningTokens: usage.reasoningTokens } : {}),
  };
}
