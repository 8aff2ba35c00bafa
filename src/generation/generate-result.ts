/** Token counts in both spellings: the docs' `prompt/completion` and the code's `input/output`. */
export interface UsageData {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Part of `inputTokens` read from the provider's prompt cache; absent when it reported none. */
  readonly cacheReadTokens?: number;
  /** Part of `inputTokens` written to the prompt cache, 5-minute lifetime. */
  readonly cacheWriteTokens?: number;
  /** Part of `inputTokens` written to the prompt cache, 1-hour lifetime. */
  readonly cacheWrite1hTokens?: number;
  /** Part of `outputTokens` spent reasoning. */
  readonly reasoningTokens?: number;
}

export interface AnalyticsData {
  readonly provider: string;
  readonly model: string;
  readonly tokens: { readonly input: number; readonly output: number; readonly total: number };
  /** USD, rounded to 5 decimals; absent when no price is known for the provider/model. */
  readonly cost?: number;
  readonly responseTime: number;
  readonly context?: Readonly<Record<string, unknown>>;
  /** ISO 8601. */
  readonly timestamp: string;
}

export type AlertLevel = 'none' | 'low' | 'medium' | 'high';

/** Judge scores (1..10) in both spellings: the docs' `*Score`/`alertLevel` and the code's short names. */
export interface EvaluationData {
  readonly relevanceScore: number;
  readonly accuracyScore: number;
  readonly completenessScore: number;
  readonly overallScore: number;
  readonly relevance: number;
  readonly accuracy: number;
  readonly completeness: number;
  readonly overall: number;
  readonly alertLevel: AlertLevel;
  /** Legacy spelling of `alertLevel`. */
  readonly alertSeverity: AlertLevel;
  readonly isOffTopic: boolean;
  readonly reasoning: string;
  readonly domainAlignment?: number;
  readonly terminologyAccuracy?: number;
  readonly toolEffectiveness?: number;
  readonly suggestedImprovements?: string;
  readonly contextUtilization?: { readonly conversationUsed: boolean; readonly toolsUsed: boolean; readonly domainKnowledgeUsed: boolean };
  /** `<provider>/<model>` of the judge, or `default` when the judge failed (see `reasoning`). */
  readonly evaluationModel: string;
  readonly evaluationProvider?: string;
  /** Milliseconds the judge took. */
  readonly evaluationTime: number;
  readonly evaluationDomain?: string;
  /** The minimum passing `overallScore` this evaluation was held to (1–10; `NEUROLINK_EVALUATION_THRESHOLD` or `evaluation.threshold`, default 7). */
  readonly threshold: number;
  /** `overallScore >= threshold`; false for a degraded evaluation (the judge failed). */
  readonly passed: boolean;
}

export interface ToolCallData {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly args: Record<string, unknown>;
}

export interface ToolResultData {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly output: unknown;
  readonly success: boolean;
  readonly executionTime: number;
}

/** One tool execution in NeuroLink's shape (`name/input/output/duration`) plus the legacy names. */
export interface ToolExecutionData {
  readonly name: string;
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  readonly output: unknown;
  readonly duration: number;
  readonly executionTime: number;
  readonly success: boolean;
}

/** A provider tried by a fallback chain, and why it was left. */
export interface ProviderAttempt {
  readonly provider: string;
  readonly model?: string;
  readonly error?: string;
  readonly errorCode?: string;
}

export interface GenerateResult {
  readonly content: string;
  /** NeuroLink's `outputs.text` (same as `content`). */
  readonly outputs: { readonly text: string };
  /** The parsed, validated object when `schema` was given. */
  readonly object?: unknown;
  readonly provider: string;
  readonly model: string;
  readonly usage: UsageData;
  readonly finishReason: string;
  /** Milliseconds for the whole call (including tool round trips). */
  readonly responseTime: number;
  readonly toolsUsed: readonly string[];
  readonly toolCalls: readonly ToolCallData[];
  readonly toolResults: readonly ToolResultData[];
  readonly toolExecutions: readonly ToolExecutionData[];
  /** Providers that failed before this one answered (fallback chain); empty when the first answered. */
  readonly attempts: readonly ProviderAttempt[];
  readonly analytics?: AnalyticsData;
  readonly evaluation?: EvaluationData;
}

export interface StreamChunk {
  readonly content: string;
}

/**
 * A running stream. `stream` yields text chunks; the fields that are only known at the end are
 * Promises that settle once the stream has been read to its end (they reject when it fails, and
 * are marked handled so an unread Promise never crashes the process). `metadata.totalChunks` is
 * filled in when the stream ends.
 */
export interface StreamResult {
  readonly stream: AsyncIterable<StreamChunk>;
  readonly provider: string;
  readonly model: string;
  readonly metadata: { readonly streamId: string; readonly startTime: number; totalChunks?: number; responseTime?: number; fallback?: boolean };
  readonly usage: Promise<UsageData>;
  readonly finishReason: Promise<string>;
  readonly toolCalls: Promise<readonly ToolCallData[]>;
  readonly toolResults: Promise<readonly ToolResultData[]>;
  /** Present when `enableAnalytics`; settles after the stream ends. */
  readonly analytics?: Promise<AnalyticsData>;
  /** Present when `enableEvaluation`; settles after the stream ends. A failed judge degrades; only a failed stream rejects it. */
  readonly evaluation?: Promise<EvaluationData>;
  /** The whole result once the stream has ended (same data as `generate` would return). */
  readonly final: Promise<GenerateResult>;
}
