import { AIProviderError } from './errors/ai-provider-error.js';
import type { GenerateResult, ProviderAttempt, ToolExecutionData, UsageData } from './generate-result.js';
import type { ModelCallResult, TokenUsage } from './language-model-client.js';
import type { PreparedSchema } from './output-schema.js';

/** Both usage spellings from the port's counts, and the prompt-cache and reasoning parts when the provider reported any. */
export function toUsageData(usage: TokenUsage): UsageData {
  const total = usage.totalTokens || usage.inputTokens + usage.outputTokens;
  return {
    promptTokens: usage.inputTokens,
    completionTokens: usage.outputTokens,
    totalTokens: total,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    ...(usage.cacheReadTokens ? { cacheReadTokens: usage.cacheReadTokens } : {}),
    ...(usage.cacheWriteTokens ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
    ...(usage.cacheWrite1hTokens ? { cacheWrite1hTokens: usage.cacheWrite1hTokens } : {}),
    ...(usage.reasoningTokens ? { reasoningTokens: usage.reasoningTokens } : {}),
  };
}

/**
 * The validated structured answer: the client's parsed `object`, else the text parsed as JSON.
 * A mismatch is not retryable: it is the caller's schema the model failed, reported with the path.
 */
export function checkStructuredOutput(schema: PreparedSchema, result: ModelCallResult, provider: string): unknown {
  const object = result.object ?? parseJsonAnswer(result.text, provider, 'a schema was given');
  const problem = schema.check(object);
  if (problem !== undefined) throw new AIProviderError(`the model's answer does not match the schema: ${problem}`, provider, { isRetryable: false });
  return object;
}

/**
 * The answer parsed as JSON (a code fence around it is tolerated): `output.format` `json` or
 * `structured` without a schema. Not JSON is not retryable: the caller asked for JSON and got prose.
 */
export function parseJsonAnswer(text: string, provider: string, because = 'output.format asks for JSON'): unknown {
  try {
    return JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch (error) {
    throw new AIProviderError(`the model's answer is not JSON although ${because}`, provider, { isRetryable: false, originalError: error });
  }
}

export interface ResultParts {
  readonly provider: string;
  readonly requestedModel: string;
  readonly call: ModelCallResult;
  readonly object: unknown;
  readonly responseTime: number;
  readonly attempts: readonly ProviderAttempt[];
}

/** A `GenerateResult` (without analytics/evaluation) from one successful model call. */
export function buildGenerateResult(parts: ResultParts): GenerateResult {
  const { call } = parts;
  const argsById = new Map(call.toolCalls.map((toolCall) => [toolCall.toolCallId, toolCall.args]));
  const toolExecutions: ToolExecutionData[] = call.toolResults.map((toolResult) => ({
    name: toolResult.toolName,
    toolName: toolResult.toolName,
    input: argsById.get(toolResult.toolCallId) ?? {},
    output: toolResult.output,
    duration: toolResult.durationMs,
    executionTime: toolResult.durationMs,
    success: toolResult.success,
  }));
  return {
    content: call.text,
    outputs: { text: call.text },
    ...(parts.object !== undefined ? { object: parts.object } : {}),
    provider: parts.provider,
    model: call.modelId || parts.requestedModel,
    usage: toUsageData(call.usage),
    finishReason: call.finishReason,
    responseTime: parts.responseTime,
    toolsUsed: [...new Set(call.toolCalls.map((toolCall) => toolCall.toolName))],
    toolCalls: call.toolCalls.map((toolCall) => ({ toolCallId: toolCall.toolCallId, toolName: toolCall.toolName, args: toolCall.args })),
    toolResults: call.toolResults.map((toolResult) => ({
      toolCallId: toolResult.toolCallId,
      toolName: toolResult.toolName,
      output: toolResult.output,
      success: toolResult.success,
      executionTime: toolResult.durationMs,
    })),
    toolExecutions,
    attempts: parts.attempts,
  };
}
