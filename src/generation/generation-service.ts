import { ConfigurationError, InvalidRequestError } from './errors/provider-errors.js';
import { normalizeEmbedOptions, type EmbedOptions, type EmbedResult, type NormalizedEmbedRequest } from './embeddings/embed-options.js';
import type { EmbeddingCallResult, EmbeddingClient } from './embeddings/embedding-client.js';
import { computeAnalytics } from './analytics/compute-analytics.js';
import { resolvePricing, type ModelPriceLookup } from './analytics/model-pricing.js';
import { buildGenerateResult, checkStructuredOutput, parseJsonAnswer } from './build-result.js';
import { CallDeadline } from './call-deadline.js';
import { attachDocuments } from './documents/attach-documents.js';
import type { DeprecationNotice } from './deprecation-notice.js';
import { errorCodeOf } from './error-code-of.js';
import { DEFAULT_EVALUATION_THRESHOLD, evaluateResponse } from './evaluation/evaluate-response.js';
import type { ChainLink } from './fallback-chain.js';
import { runObservedChain } from './observed-chain.js';
import type { GenerateOptions, StreamOptions } from './generate-options.js';
import type { EvaluationData, GenerateResult, StreamResult } from './generate-result.js';
import type { LanguageModelClient, ModelCallRequest, ModelCallResult } from './language-model-client.js';
import { normalizeOptions, type NormalizedRequest } from './normalize-options.js';
import type { ProviderCatalog } from './provider-catalog.js';
import { normalizeProviderName, type ProviderName } from './provider-name.js';
import { fallbackOrder, selectProvider } from './select-provider.js';
import { forwardObserved } from './forward-native.js';
import { forwardsNatively, type NativeWire, type NativeWireRequest, type NativeWireResponse } from './native-wire.js';
import type { CallAttribution } from './llm-call-record.js';
import { observeTool } from './observe-tool.js';
import { openStreamResult, type PreparedCall } from './stream-result.js';
import type { LlmCallRecorder } from './llm-call-record.js';
import { observedJudge, recordingTelemetry } from './record-calls.js';
import { withinObservation, type GenerationTelemetry } from './telemetry.js';
import type { ToolDefinition } from './tool-definition.js';
import { offeredTools } from './tools/tool-permissions.js';

/** Providers whose API refuses a call without an output limit (Anthropic's `max_tokens`; Claude on Bedrock and Vertex alike). */
const providersRequiringOutputLimit: ReadonlySet<ProviderName> = new Set(['anthropic', 'bedrock', 'vertex']);

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
 * The toolkit's generate/stream loop over the `LanguageModelClient` port: validates options before
 * any network call, resolves the provider (explicit, `DEFAULT_PROVIDER` or auto order) and walks a
 * fallback chain over configured providers when none was forced, applies the timeout to the whole
 * call, and attaches analytics and evaluation on request.
 */
export class GenerationService {
  private readonly clock: () => number;
  private readonly now: () => Date;
  private readonly newStreamId: () => string;

  constructor(private readonly deps: GenerationServiceDeps) {
    this.clock = deps.clock ?? (() => performance.now());
    this.now = deps.now ?? (() => new Date());
    this.newStreamId = deps.newStreamId ?? (() => crypto.randomUUID());
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
   * the candidates to try in order (a gateway route group's ranking; retryable failures move on).
   */
  async generate(optionsOrText: GenerateOptions | string, bound?: ChainLink | readonly ChainLink[]): Promise<GenerateResult> {
    const request = await attachDocuments(normalizeOptions(optionsOrText, this.deps.notice));
    const links = this.plan(request, bound);
    const telemetry = this.telemetryFor(request);
    const started = this.clock();
    const outcome = await runObservedChain(links, telemetry, 'generate', (link, observed) => this.generateOnce(link, request, observed));
    const { client, result, object } = outcome.value;
    const base = buildGenerateResult({
      provider: client.provider,
      requestedModel: client.modelId,
      call: result,
      object,
      responseTime: Math.round(this.clock() - started),
      attempts: outcome.attempts,
    });
    return this.enrich(base, request, telemetry);
  }

  /** Streams text; the chain may switch provider only before the first chunk. */
  async stream(optionsOrText: StreamOptions | string, bound?: ChainLink | readonly ChainLink[]): Promise<StreamResult> {
    const request = await attachDocuments(normalizeOptions(optionsOrText, this.deps.notice));
    const links = this.plan(request, bound);
    const telemetry = this.telemetryFor(request);
    return openStreamResult({
      links,
      request,
      prepare: (link, operation) => this.prepare(link, request, operation, telemetry),
      telemetry,
      clock: this.clock,
      streamId: this.newStreamId(),
      startTime: this.now().getTime(),
      checkSchema: (result, provider) => structuredAnswer(request, result, provider),
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
    if (links.length === 0) throw new InvalidRequestError('a route needs at least one candidate', 'toolkit', 'model');
    const telemetry = this.telemetryForAttribution(request.attribution);
    const started = this.clock();
    const outcome = await runObservedChain(links, telemetry, 'embed', (link, observed) => this.embedOnce(link, request, observed));
    const { client, result } = outcome.value;
    return {
      embeddings: result.embeddings,
      provider: client.provider,
      model: client.modelId,
      usage: { inputTokens: result.inputTokens },
      responseTime: Math.round(this.clock() - started),
      attempts: outcome.attempts,
    };
  }

  /** Whether the provider/model's client forwards `wire` natively (src/generation/native-wire.ts). */
  speaksNatively(link: Required<ChainLink>, wire: NativeWire): boolean {
    const client = this.deps.catalog.createClient(link.provider, link.model);
    return forwardsNatively(client) && client.nativeWires.includes(wire);
  }

  /**
   * Forwards a request natively to one provider/model, observed and recorded as any model call
   * (`hop`: the candidates tried before it, the record's `fallbackHops`).
   * @returns undefined when that client does not speak the request's wire (translate it instead).
   */
  async forward(link: Required<ChainLink>, request: NativeWireRequest, attribution: CallAttribution, hop = 0): Promise<NativeWireResponse | undefined> {
    const client = this.deps.catalog.createClient(link.provider, link.model);
    if (!forwardsNatively(client) || !client.nativeWires.includes(request.wire)) return undefined;
    const inner = this.deps.telemetry();
    const telemetry =
      this.deps.recordCall === undefined
        ? inner
        : recordingTelemetry(
            inner,
            {
              recorder: this.deps.recordCall,
              attribution,
              priceOf: this.deps.priceOf,
              env: this.deps.env,
              clock: this.clock,
              ...(this.deps.onRecorderError !== undefined ? { onRecorderError: this.deps.onRecorderError } : {}),
            },
            { attempts: hop },
          );
    return forwardObserved(client, request, { telemetry, clock: this.clock, timeoutMs: this.deps.catalog.defaultTimeoutMs?.(link.provider) });
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
    return this.telemetryForAttribution(request.attribution);
  }

  private telemetryForAttribution(attribution: NormalizedRequest['attribution']): GenerationTelemetry {
    const inner = this.deps.telemetry();
    if (this.deps.recordCall === undefined) return inner;
    return recordingTelemetry(inner, {
      recorder: this.deps.recordCall,
      attribution,
      priceOf: this.deps.priceOf,
      env: this.deps.env,
      clock: this.clock,
      ...(this.deps.onRecorderError !== undefined ? { onRecorderError: this.deps.onRecorderError } : {}),
    });
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

  private async embedOnce(
    link: ChainLink,
    request: NormalizedEmbedRequest,
    telemetry: GenerationTelemetry,
  ): Promise<{ client: EmbeddingClient; result: EmbeddingCallResult }> {
    const client = this.deps.catalog.createEmbeddingClient?.(link.provider, link.model);
    if (client === undefined) throw new InvalidRequestError(`${link.provider} has no embedding models`, link.provider, 'model');
    const deadline = new CallDeadline(request.timeoutMs ?? this.deps.catalog.defaultTimeoutMs?.(link.provider), request.abortSignal, client.provider, 'embed');
    const observation = telemetry.enabled ? telemetry.startCall('embed', client.provider, client.modelId) : undefined;
    const started = this.clock();
    try {
      const result = await deadline.race(
        client.embed({ values: request.values, ...(request.dimensions !== undefined ? { dimensions: request.dimensions } : {}), abortSignal: deadline.signal }),
      );
      observation?.end({
        ok: true,
        model: client.modelId,
        usage: { inputTokens: result.inputTokens, outputTokens: 0, totalTokens: result.inputTokens },
        latencyMs: this.clock() - started,
      });
      return { client, result };
    } catch (error) {
      const mapped = deadline.mapError(error);
      observation?.end({ ok: false, errorCode: errorCodeOf(mapped), latencyMs: this.clock() - started });
      throw mapped;
    } finally {
      deadline.dispose();
    }
  }

  private async prepare(link: ChainLink, request: NormalizedRequest, operation: 'generate' | 'stream', telemetry: GenerationTelemetry): Promise<PreparedCall> {
    const client = this.deps.catalog.createClient(link.provider, link.model);
    const offered =
      request.disableTools || !client.supportsTools
        ? []
        : offeredTools(request.extraTools, await this.deps.tools(request.attribution), request.toolPermissions);
    const tools = telemetry.enabled ? offered.map((tool) => observeTool(tool, telemetry, this.clock)) : offered;
    // The caller's timeout wins; otherwise the provider's own default (a local runner's 5 minutes).
    const timeoutMs = request.timeoutMs ?? this.deps.catalog.defaultTimeoutMs?.(link.provider);
    const deadline = new CallDeadline(timeoutMs, request.abortSignal, client.provider, operation);
    const { providerHeaders, ...controls } = request.controls;
    const headers = providerHeaders?.[client.provider];
    const call: ModelCallRequest = {
      messages: request.messages,
      ...(request.system !== undefined ? { system: request.system } : {}),
      ...(request.system !== undefined && request.systemCacheControl !== undefined ? { systemCacheControl: request.systemCacheControl } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...controls,
      ...(headers !== undefined ? { headers } : {}),
      ...this.outputLimitOf(client, request),
      ...(tools.length > 0 ? { tools } : {}),
      ...(request.clientTools.length > 0 && client.supportsTools ? { clientTools: request.clientTools } : {}),
      maxSteps: request.maxSteps,
      ...(request.schema !== undefined ? { schema: request.schema.json } : {}),
      abortSignal: deadline.signal,
      confirmedTools: request.confirmedTools,
    };
    return { client, call, deadline };
  }

  /**
   * The output limit sent: the call's own, else (the gateway asks for the provider's defaults) none,
   * except for a provider whose API requires one: Anthropic's Messages (`max_tokens`) gets the
   * model's maximum output from the registry, or the AI SDK's own per-model maximum when the
   * registry does not know the model.
   */
  private outputLimitOf(client: LanguageModelClient, request: NormalizedRequest): { maxTokens?: number } {
    if (request.maxTokens !== undefined) return { maxTokens: request.maxTokens };
    if (!providersRequiringOutputLimit.has(client.provider)) return {};
    const maximum = this.deps.maxOutputTokensOf?.(client.modelId);
    return maximum === undefined ? {} : { maxTokens: maximum };
  }

  private async generateOnce(
    link: ChainLink,
    request: NormalizedRequest,
    telemetry: GenerationTelemetry,
  ): Promise<{ client: LanguageModelClient; result: ModelCallResult; object: unknown }> {
    const { client, call, deadline } = await this.prepare(link, request, 'generate', telemetry);
    const observation = telemetry.enabled ? telemetry.startCall('generate', client.provider, client.modelId) : undefined;
    const started = this.clock();
    try {
      const result = await deadline.race(withinObservation(observation, () => client.generate(call)));
      const object = structuredAnswer(request, result, client.provider);
      observation?.end({
        ok: true,
        model: result.modelId || client.modelId,
        usage: result.usage,
        finishReason: result.finishReason,
        latencyMs: this.clock() - started,
      });
      return { client, result, object };
    } catch (error) {
      const mapped = deadline.mapError(error);
      observation?.end({ ok: false, errorCode: errorCodeOf(mapped), latencyMs: this.clock() - started });
      throw mapped;
    } finally {
      deadline.dispose();
    }
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
