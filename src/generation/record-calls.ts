import { callCostUsd, promptCacheSavedUsd, resolvePricing, type ModelPriceLookup } from './analytics/model-pricing.js';
import { errorCodeOf } from './error-code-of.js';
import type { LanguageModelClient, TokenUsage } from './language-model-client.js';
import { attemptAttribution, type CallAttribution, type LlmCallRecord, type LlmCallRecorder } from './llm-call-record.js';
import type { CallObservation, CallOperation, CallOutcome, ChainObservation, ChainOperation, GenerationTelemetry } from './telemetry.js';

/** The error class a toolkit error code stands for, as the `llm.call` record names it. */
const errorClassByCode: Readonly<Record<string, string>> = {
  PROVIDER_ERROR: 'AIProviderError',
  TIMEOUT: 'TimeoutError',
  CONFIGURATION: 'ConfigurationError',
  AUTHENTICATION: 'AuthenticationError',
  RATE_LIMITED: 'RateLimitError',
  QUOTA_EXCEEDED: 'QuotaExceededError',
  INVALID_REQUEST: 'InvalidRequestError',
  CANCELLED: 'Cancelled',
  MCP_ERROR: 'MCPError',
  MCP_CONNECTION: 'MCPConnectionError',
  MCP_TOOL: 'MCPToolError',
  MCP_CONFIGURATION: 'MCPConfigurationError',
  USER_CONFIRMATION_REQUIRED: 'UserConfirmationRequiredError',
};

export interface CallRecordingContext {
  readonly recorder: LlmCallRecorder;
  readonly attribution: CallAttribution;
  readonly priceOf?: ModelPriceLookup | undefined;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  readonly clock: () => number;
  /** Told when the recorder throws; the call itself never fails for it. */
  readonly onRecorderError?: (error: unknown) => void;
}

/** An observation that can also be told when a stream's first chunk arrived. */
export interface StreamObservation extends CallObservation {
  firstChunk?(): void;
}

const recordedOperations: Readonly<Partial<Record<CallOperation, LlmCallRecord['operation']>>> = {
  generate: 'generate',
  stream: 'stream',
  embed: 'embed',
  evaluate: 'evaluation',
};

/**
 * Telemetry for one request that also records every model call it observes (each provider
 * attempt of a fallback chain, each stream, each judge call) as an `LlmCallRecord`: hops counted
 * in attempt order, time to first chunk for streams, cost from the registry's pricing. Tool
 * observations pass through unrecorded. Never carries prompt or completion text. A fallback chain
 * observed as one call (`startChain`) still records each of its attempts, counted on the same hops.
 */
export function recordingTelemetry(
  inner: GenerationTelemetry,
  context: CallRecordingContext,
  hops: { attempts: number } = { attempts: 0 },
): GenerationTelemetry {
  const startChain = inner.startChain?.bind(inner);
  return {
    enabled: true,
    ...(startChain !== undefined
      ? {
          startChain(operation: ChainOperation): ChainObservation {
            const chain = startChain(operation);
            return {
              succeeded: () => chain.succeeded(),
              fail: (errorCode) => chain.fail(errorCode),
              telemetry: recordingTelemetry(chain.telemetry, context, hops),
            };
          },
        }
      : {}),
    startCall(operation, provider, model): StreamObservation {
      const innerObservation: StreamObservation = inner.startCall(operation, provider, model);
      const recorded = recordedOperations[operation];
      if (recorded === undefined) return innerObservation;
      const hop = recorded === 'evaluation' ? 0 : hops.attempts++;
      const started = context.clock();
      let firstChunkAt: number | undefined;
      return {
        firstChunk() {
          firstChunkAt ??= context.clock();
          innerObservation.firstChunk?.();
        },
        within<T>(work: () => T): T {
          return innerObservation.within === undefined ? work() : innerObservation.within(work);
        },
        end(outcome: CallOutcome) {
          innerObservation.end(outcome);
          const answered = outcome.model !== undefined && outcome.model !== '' ? outcome.model : model;
          const usage = callUsageOf(outcome.usage);
          const pricing = resolvePricing(provider, answered, context.priceOf, context.env);
          const saved = pricing === undefined ? 0 : promptCacheSavedUsd(usage, pricing);
          const record: LlmCallRecord = {
            provider,
            model: answered,
            operation: recorded,
            ...usage,
            costUsd: pricing === undefined ? 0 : callCostUsd(usage, pricing),
            ...(saved !== 0 ? { promptCacheSavedUsd: saved } : {}),
            latencyMs: Math.max(0, Math.round(outcome.latencyMs)),
            ...(firstChunkAt !== undefined ? { timeToFirstTokenMs: Math.max(0, Math.round(firstChunkAt - started)) } : {}),
            outcome: outcome.ok ? 'success' : 'error',
            ...(outcome.ok ? {} : { errorClass: errorClassByCode[outcome.errorCode ?? ''] ?? outcome.errorCode ?? 'Error' }),
            fallbackHops: hop,
            attribution: attemptAttribution(context.attribution, provider, model),
          };
          try {
            context.recorder(record);
          } catch (error) {
            context.onRecorderError?.(error);
          }
        },
      };
    },
  };
}

/** The token counts a record carries: input and output (0 when the provider reported none), and the cache and reasoning parts it reported. */
function callUsageOf(
  usage: TokenUsage | undefined,
): Pick<LlmCallRecord, 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'cacheWrite1hTokens' | 'reasoningTokens'> {
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    ...(usage?.cacheReadTokens ? { cacheReadTokens: usage.cacheReadTokens } : {}),
    ...(usage?.cacheWriteTokens ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
    ...(usage?.cacheWrite1hTokens ? { cacheWrite1hTokens: usage.cacheWrite1hTokens } : {}),
    ...(usage?.reasoningTokens ? { reasoningTokens: usage.reasoningTokens } : {}),
  };
}

/** A judge client whose calls are observed as `evaluate` (so they are recorded like any other call). */
export function observedJudge(client: LanguageModelClient, telemetry: GenerationTelemetry, clock: () => number): LanguageModelClient {
  if (!telemetry.enabled) return client;
  return {
    provider: client.provider,
    modelId: client.modelId,
    supportsTools: client.supportsTools,
    stream: (request) => client.stream(request),
    async generate(request) {
      const observation = telemetry.startCall('evaluate', client.provider, client.modelId);
      const started = clock();
      try {
        const result = await client.generate(request);
        observation.end({ ok: true, model: result.modelId || client.modelId, usage: result.usage, latencyMs: clock() - started });
        return result;
      } catch (error) {
        observation.end({ ok: false, errorCode: errorCodeOf(error), latencyMs: clock() - started });
        throw error;
      }
    },
  };
}
