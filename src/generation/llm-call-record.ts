import type { LlmCallApi } from '../ports/llm-call-api.js';

/**
 * Who a model call is made for, carried from the surface that received it (HTTP, stream, batch job,
 * WebSocket, CLI) into the call's record. Never part of the prompt.
 */
export interface CallAttribution {
  readonly merchantId?: string;
  readonly userId?: string;
  readonly requestId?: string;
  readonly batchId?: string;
  /** Job id of a batch item (`<batchId>:<index>`), so a redelivered job records once. */
  readonly jobId?: string;
  /** Delivery attempt of that job (1 first): failed attempts of one job are distinct records. */
  readonly jobAttempt?: number;
  /** The API key the request was made with: its limits count this call's tokens and cost. */
  readonly apiKeyId?: string;
  /**
   * The end user the request named (`user`, `metadata.user_id` or the `x-switchyard-end-user`
   * header): the key's per-end-user limits count this call for it, and the analytics split spend by it.
   */
  readonly endUser?: string;
  /** The gateway route group the call was routed in: its outcome teaches that group's windows. */
  readonly routeGroup?: string;
  /** How that group ranked its candidates for this request (the decision the analytics show). */
  readonly routeApproach?: 'sr' | 'sr_downtime' | 'explore' | 'affinity';
  /**
   * That group's candidates (`provider/model`) below its elimination threshold when this request
   * was routed, tried or not: the analytics count eliminations over time from it.
   */
  readonly eliminatedCandidates?: readonly string[];
  readonly surface?: CallSurface;
  /**
   * The providers whose calls the merchant's own stored credentials made (its provider account
   * pays them); any other provider's calls used the operator's. Set by the provider-protocol layer.
   */
  readonly ownCredentialProviders?: readonly string[];
  /**
   * The candidates (`provider/model`, the model asked for) a route group pays with one of the
   * merchant's named credentials: their attempts are the merchant's too, whatever its default
   * credentials (see {@link billedToMerchant}).
   */
  readonly ownCredentialCandidates?: readonly string[];
  /**
   * The API the call came through (the gateway's routes say which); when absent the record takes
   * it from the surface (see {@link callApiOf}).
   */
  readonly api?: LlmCallApi;
  /** Why the call was made when it is not the caller's own request: `guard-judge` (the injection-judge guardrail). */
  readonly purpose?: 'guard-judge';
}

/**
 * The attribution of one attempt at `provider` with `model` (the model asked for): a candidate paid
 * with a named credential counts among `ownCredentialProviders` for that attempt only, so its
 * record says the merchant paid while another candidate of the same provider stays the operator's.
 */
export function attemptAttribution(attribution: CallAttribution, provider: string, model: string): CallAttribution {
  if (attribution.ownCredentialCandidates?.includes(`${provider}/${model}`) !== true || attribution.ownCredentialProviders?.includes(provider) === true)
    return attribution;
  return { ...attribution, ownCredentialProviders: [...(attribution.ownCredentialProviders ?? []), provider] };
}

export type CallSurface = 'library' | 'http' | 'sse' | 'websocket' | 'batch' | 'cli' | 'gateway' | 'evaluation';

/** The API of surfaces that are one API: the toolkit's routes and WebSocket, batch jobs. */
const surfaceApis: Partial<Record<CallSurface, LlmCallApi>> = { http: 'toolkit', sse: 'toolkit', websocket: 'toolkit', batch: 'batch' };

/**
 * The API a call came through: the one its attribution names, else the one its surface is
 * (toolkit, batch), else none (library, CLI, or a gateway call whose route named none).
 */
export function callApiOf(attribution: CallAttribution): LlmCallApi | undefined {
  return attribution.api ?? (attribution.surface === undefined ? undefined : surfaceApis[attribution.surface]);
}

/** One model call as the `llm.call` event reports it: usage, cost, timing and outcome, no text. */
export interface LlmCallRecord {
  readonly provider: string;
  readonly model: string;
  readonly operation: 'generate' | 'stream' | 'embed' | 'evaluation';
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Part of `inputTokens` read from the provider's prompt cache (see `TokenUsage`). */
  readonly cacheReadTokens?: number;
  /** Part of `inputTokens` written to the prompt cache, 5-minute lifetime. */
  readonly cacheWriteTokens?: number;
  /** Part of `inputTokens` written to the prompt cache, 1-hour lifetime. */
  readonly cacheWrite1hTokens?: number;
  /** Part of `outputTokens` spent reasoning. */
  readonly reasoningTokens?: number;
  /** What the call cost at the registry's prices, prompt-cache prices included (`callCostUsd`); 0 when unpriced. */
  readonly costUsd: number;
  /**
   * What prompt caching saved on this call: its cost with every input token at the full input price,
   * less `costUsd` (negative when it wrote more to the cache than it read); absent when it used no
   * cache or is unpriced.
   */
  readonly promptCacheSavedUsd?: number;
  readonly latencyMs: number;
  /** Streams only: time from the call to its first chunk. */
  readonly timeToFirstTokenMs?: number;
  readonly outcome: 'success' | 'error';
  /** The error class (`RateLimitError`, `TimeoutError`…) when the outcome is an error. */
  readonly errorClass?: string;
  /** Providers tried before this one answered (0 when the first answered). */
  readonly fallbackHops: number;
  /**
   * The gateway answered from its response cache (issue 14): no provider was called, `costUsd` is
   * 0 and the tokens are those of the cached answer.
   */
  readonly cacheHit?: boolean;
  /** Cache hits only: the cached tokens at the registry's price when served (what the hit saved); absent when unpriced. */
  readonly savedCostUsd?: number;
  readonly attribution: CallAttribution;
}

/** Receives every call record; must not throw or block (publishing is its own concern). */
export type LlmCallRecorder = (record: LlmCallRecord) => void;
