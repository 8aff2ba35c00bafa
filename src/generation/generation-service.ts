import { ConfigurationError, InvalidRequestError } from './errors/provider-errors.js';
import { normalizeEmbedOptions, type EmbedOptions, type EmbedResult, type NormalizedEmbedRequest } from './embeddings/embed-options.js';
import { computeAnalytics } from './analytics/compute-analytics.js';
import { resolvePricing, type ModelPriceLookup } from './analytics/model-pricing.js';
import { buildGenerateResult, checkStructuredOutput, parseJsonAnswer } from './build-result.js';
import { attachDocuments } from './documents/attach-documents.js';
import type { DeprecationNotice } from './deprecation-notice.js';
import { DEFAULT_EVALUATION_THRESHOLD, evaluateResponse } from './evaluation/evaluate-response.js';
import type { ChainLink } from './fallback-chain.js';
import type { GenerateOptions, StreamOptions } from './generate-options.js';
import type { EvaluationData, GenerateResult, StreamResult } from './generate-result.js';
import type { ModelCallResult } from './language-model-client.js';
import { normalizeOptions, type NormalizedRequest } from './normalize-options.js';
import type { ProviderCatalog } from './provider-catalog.js';
import { ProviderCalls, type ProviderCallContext, type ProviderCallRequest } from './provider-calls.js';
import { normalizeProviderName, type ProviderName } from './provider-name.js';
import { fallbackOrder, selectProvider } from './select-provider.js';
import type { LlmCallRecorder } from './llm-call-record.js';
import { openStreamResult } from './stream-result.js';
import { observedJudge } from './record-calls.js';
import type { GenerationTelemetry } from './telemetry.js';
import type { ToolDefinition } from './tool-definition.js';
import { offeredTools } from './tools/tool-permissions.js';

/** Judge settings from the environment (`NEUROLINK_EVALUATION_PROVIDER`, `_MODEL`, `_TIMEOUT`). */
export interface EvaluationSettings {
  readonly provider?: ProviderName;
  readonly model?: string;
  readonly timeoutMs: number;
  /** Minimum passing overall score (1–10); default 7. */
  readonly threshold?: number;
}

export interface GenerationServiceDeps {
  readonly catalog: ProviderCatalog;
  /**
   * The provider-protocol layer to call models through (shared with the gateway); default: one
   * made from this service's own catalog, pricing, telemetry and recorder.
   */
  readonly providerCalls?: ProviderCalls;
  /**
   * Built-in, registered custom and MCP tools, gathered for each call that may use tools: the one
   * place a call's tool set is assembled, so the call's attribution (its merchant) scopes it.
   */
  readonly tools: (attribution: NormalizedRequest['attribution']) => Promise<readonly ToolDefinition[]>;
  /** Registry price of a model (USD per 1K tokens). */
  readonly priceOf?: ModelPriceLookup;
  /** The registry's maximum output of a model: the limit sent where a provider requires one and the call gave none. */
  readonly maxOutputTokensOf?: (modelId: string) => number | undefined;
  /** Environment for `<PROVIDER>_DEFAULT_INPUT_COST` overrides. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Read at each call, so `initializeTelemetry` after construction still takes effect. */
  readonly telemetry: () => GenerationTelemetry;
  readonly notice: DeprecationNotice;
  /** `DEFAULT_PROVIDER`. */
  readonly defaultProvider?: string;
  readonly evaluation: EvaluationSettings;
  /** Monotonic milliseconds (default `performance.now`). */
  readonly clock?: () => number;
  readonly now?: () => Date;
  readonly newStreamId?: () => string;
  /** Receives a record of every model call (the `llm.call` events); never fails a call. */
  readonly recordCall?: LlmCallRecorder;
  /** Told when `recordCall` throws. */
  readonly onRecorderError?: (error: unknown) => void;
}

/**
 * The toolkit's generate/stream loop: validates options and fills NeuroLink's documented defaults
 * before any network call, resolves the provider (explicit, `DEFAULT_PROVIDER` or auto order) and
 * the chain of configured providers to walk when none was forced, gathers the call's tools, and
 * attaches analytics and evaluation on request. The model calls themselves (failover, timeout,
 * recording) go through the provider-protocol layer (./provider-calls.ts), as the gateway's do.
 */
export class GenerationService {
  private readonly clock: () => number;
  private readonly now: () => Date;
  private readonly newStreamId: () => string;
  /** The provider-protocol layer its model calls go through (the one the gateway uses too). */
  private readonly calls: ProviderCalls;

  constructor(private readonly deps: GenerationServiceDeps) {
    this.clock = deps.clock ?? (() => performance.now());
    this.now = deps.now ?? (() => new Date());
    this.newStreamId = deps.newStreamId ?? (() => crypto.randomUUID());
    this.calls =
      deps.providerCalls ??
      new ProviderCalls({
        catalog: deps.catalog,
        priceOf: deps.priceOf,
        maxOutputTokensOf: deps.maxOutputTokensOf,
        env: deps.env,
        telemetry: deps.telemetry,
        clock: this.clock,
        recordCall: deps.recordCall,
        onRecorderError: deps.onRecorderError,
      });
  }

  /**
   * The models a call naming `provider` and `model` (either may be absent) can be answered by: each
   * link of its plan, at the link's model or its provider's default. What a budget reservation prices
   * a call at when it names no model (the dearest of them). Empty when the provider is unknown or
   * none is configured: the call itself is refused then.
   */
  candidateModels(options: { readonly provider?: string | undefined; readonly model?: string | undefined }): string[] {
    const provider = options.provider === undefined ? undefined : normalizeProviderName(options.provider);
    if (options.provider !== undefined && provider === undefined) return [];
    let links: ChainLink[];
    try {
      links = this.plan({ provider, model: options.model }, undefined);
    } catch (error) {
      if (error instanceof ConfigurationError) return [];
      throw error;
    }
    return links.map((link) => link.model ?? this.deps.catalog.defaultModel(link.provider));
  }

  /**
   * Generates text. `bound` pins the provider/model (an `AIProvider` made by a factory), or lists
   * the candidates to try in order (retryable failures move on).
   */
  async generate(optionsOrText: GenerateOptions | string, bound?: ChainLink | readonly ChainLink[]): Promise<GenerateResult> {
    const request = await attachDocuments(normalizeOptions(optionsOrText, this.deps.notice));
    const links = this.plan(request, bound);
    const telemetry = this.telemetryFor(request);
    const started = this.clock();
    const answer = await this.calls.generate(links, this.callOf(request), this.contextOf(request, telemetry));
    const base = buildGenerateResult({
      provider: answer.client.provider,
      requestedModel: answer.client.modelId,
      call: answer.result,
      object: answer.object,
      responseTime: Math.round(this.clock() - started),
      attempts: answer.attempts,
    });
    return this.enrich(base, request, telemetry);
  }

  /** Streams text; the chain may switch provider only before the first chunk. */
  async stream(optionsOrText: StreamOptions | string, bound?: ChainLink | readonly ChainLink[]): Promise<StreamResult> {
    const request = await attachDocuments(normalizeOptions(optionsOrText, this.deps.notice));
    const links = this.plan(request, bound);
    const telemetry = this.telemetryFor(request);
    const started = this.clock();
    const startTime = this.now().getTime();
    const streamId = this.newStreamId();
    const opened = await this.calls.stream(links, this.callOf(request), this.contextOf(request, telemetry));
    return openStreamResult(opened, {
      request,
      clock: this.clock,
      started,
      streamId,
      startTime,
      enrich: (result) => this.enrich(result, request, telemetry),
    });
  }

  /**
   * Embeds texts. Without a provider it walks the configured providers that have embeddings, in
   * auto order; `bound` lists the candidates to try (a route group's ranking). Retryable failures
   * move on, as for `generate`; each attempt is recorded (`operation: embed`).
   */
  async embed(options: EmbedOptions, bound?: readonly ChainLink[]): Promise<EmbedResult> {
    const request = normalizeEmbedOptions(options);
    const links = bound ?? this.embeddingPlan(request);
    const started = this.clock();
    const answer = await this.calls.embed(
      links,
      { values: request.values, dimensions: request.dimensions },
      { attribution: request.attribution, abortSignal: request.abortSignal, timeoutMs: request.timeoutMs },
    );
    return {
      embeddings: answer.result.embeddings,
      provider: answer.client.provider,
      model: answer.client.modelId,
      usage: { inputTokens: answer.result.inputTokens },
      responseTime: Math.round(this.clock() - started),
      attempts: answer.attempts,
    };
  }

  /**
   * The provider-protocol layer's request for a validated call: the toolkit's defaults are already
   * in `request` (normalizeOptions), its tools gathered only for a client that runs them.
   */
  private callOf(request: NormalizedRequest): ProviderCallRequest {
    return {
      messages: request.messages,
      ...(request.system !== undefined ? { system: request.system } : {}),
      ...(request.system !== undefined && request.systemCacheControl !== undefined ? { systemCacheControl: request.systemCacheControl } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...request.controls,
      maxTokens: request.maxTokens,
      ...(request.disableTools
        ? {}
        : {
            tools: async () =>
              guardedTools(offeredTools(request.extraTools, await this.deps.tools(request.attribution), request.toolPermissions), request.toolGuard),
          }),
      ...(request.clientTools.length > 0 ? { clientTools: request.clientTools } : {}),
      maxSteps: request.maxSteps,
      ...(request.schema !== undefined ? { schema: request.schema.json } : {}),
      confirmedTools: request.confirmedTools,
    };
  }

  private contextOf(request: NormalizedRequest, telemetry: GenerationTelemetry): ProviderCallContext {
    return {
      attribution: request.attribution,
      abortSignal: request.abortSignal,
      timeoutMs: request.timeoutMs,
      checkAnswer: (result, provider) => structuredAnswer(request, result, provider),
      telemetry,
    };
  }

  /** Attaches analytics and evaluation when asked for. Evaluation never throws. */
  async enrich(result: GenerateResult, request: NormalizedRequest, telemetry: GenerationTelemetry = this.telemetryFor(request)): Promise<GenerateResult> {
    const analytics = request.enableAnalytics
      ? computeAnalytics({
          provider: result.provider,
          model: result.model,
          usage: result.usage,
          responseTime: result.responseTime,
          pricing: resolvePricing(result.provider, result.model, this.deps.priceOf, this.deps.env),
          context: request.context,
          now: this.now(),
        })
      : undefined;
    const evaluation = request.enableEvaluation ? await this.evaluate(result, request, telemetry) : undefined;
    return { ...result, ...(analytics !== undefined ? { analytics } : {}), ...(evaluation !== undefined ? { evaluation } : {}) };
  }

  /** The process telemetry, plus call recording when a recorder is set (per request: hops are counted per call). */
  private telemetryFor(request: NormalizedRequest): GenerationTelemetry {
    return this.calls.telemetryFor(request.attribution);
  }

  private evaluate(result: GenerateResult, request: NormalizedRequest, telemetry: GenerationTelemetry): Promise<EvaluationData> {
    const provider = request.evaluation.provider ?? this.deps.evaluation.provider ?? (result.provider as ProviderName);
    const model = request.evaluation.model ?? this.deps.evaluation.model ?? (provider === result.provider ? result.model : undefined);
    return evaluateResponse({
      query: request.text,
      response: result.content,
      domain: request.evaluationDomain,
      toolsUsed: result.toolsUsed,
      hasHistory: request.hasHistory,
      judge: () => observedJudge(this.deps.catalog.createClient(provider, model), telemetry, this.clock),
      timeoutMs: request.evaluation.timeoutMs ?? this.deps.evaluation.timeoutMs,
      threshold: request.evaluation.threshold ?? this.deps.evaluation.threshold ?? DEFAULT_EVALUATION_THRESHOLD,
      clock: this.clock,
    });
  }

  private plan(request: Pick<NormalizedRequest, 'provider' | 'model'>, bound: ChainLink | readonly ChainLink[] | undefined): ChainLink[] {
    if (isLinkList(bound)) {
      if (bound.length === 0) throw new InvalidRequestError('a route needs at least one candidate', 'toolkit', 'model');
      return [...bound];
    }
    if (bound !== undefined) {
      const model = request.model ?? bound.model;
      return [model === undefined ? { provider: bound.provider } : { provider: bound.provider, model }];
    }
    const selection = selectProvider(this.deps.catalog, request.provider, this.deps.defaultProvider);
    if (request.provider !== undefined && request.provider !== 'auto')
      return [{ provider: selection.provider, ...(request.model !== undefined ? { model: request.model } : {}) }];
    // The caller's model names a model of the first provider; fallbacks use their own defaults.
    return fallbackOrder(this.deps.catalog, selection).map((provider, index) =>
      index === 0 && request.model !== undefined ? { provider, model: request.model } : { provider },
    );
  }

  /** The explicit provider, or every configured provider with embeddings (`DEFAULT_PROVIDER` first). */
  private embeddingPlan(request: NormalizedEmbedRequest): ChainLink[] {
    const model = request.model !== undefined ? { model: request.model } : {};
    if (request.provider !== undefined && request.provider !== 'auto') {
      selectProvider(this.deps.catalog, request.provider, undefined);
      return [{ provider: request.provider, ...model }];
    }
    const catalog = this.deps.catalog;
    const embedding = catalog.names.filter((name) => catalog.isConfigured(name) && catalog.createEmbeddingClient?.(name) !== undefined);
    const preferred = this.deps.defaultProvider === undefined ? undefined : normalizeProviderName(this.deps.defaultProvider);
    const ordered =
      preferred !== undefined && embedding.includes(preferred as ProviderName)
        ? [preferred as ProviderName, ...embedding.filter((name) => name !== preferred)]
        : embedding;
    if (ordered.length === 0)
      throw new ConfigurationError(
        'No configured provider has embeddings: configure one of OpenAI, Azure OpenAI, Mistral, a LiteLLM proxy, an OpenAI-compatible server or Ollama',
        'toolkit',
      );
    return ordered.map((provider, index) => (index === 0 ? { provider, ...model } : { provider }));
  }
}

/** The validated object (`schema`), the parsed JSON answer (`output.format` json without a schema), or nothing. */
function structuredAnswer(request: NormalizedRequest, result: ModelCallResult, provider: string): unknown {
  if (request.schema !== undefined) return checkStructuredOutput(request.schema, result, provider);
  return request.jsonAnswer ? parseJsonAnswer(result.text, provider) : undefined;
}

function isLinkList(bound: ChainLink | readonly ChainLink[] | undefined): bound is readonly ChainLink[] {
  return Array.isArray(bound);
}

/** The offered tools, each wrapped by the call's `toolGuard` when it has one (the same list otherwise). */
function guardedTools(tools: ToolDefinition[], toolGuard: ((tool: ToolDefinition) => ToolDefinition) | undefined): readonly ToolDefinition[] {
  return toolGuard === undefined ? tools : tools.map(toolGuard);
}
