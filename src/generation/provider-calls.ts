import type { ModelPriceLookup } from './analytics/model-pricing.js';
import type { CallControls } from './call-controls.js';
import { CallDeadline } from './call-deadline.js';
import type { EmbeddingCallResult, EmbeddingClient } from './embeddings/embedding-client.js';
import { errorCodeOf } from './error-code-of.js';
import { AIProviderError } from './errors/ai-provider-error.js';
import { ConfigurationError, InvalidRequestError } from './errors/provider-errors.js';
import type { ChainLink } from './fallback-chain.js';
import { forwardObserved } from './forward-native.js';
import type { ProviderAttempt } from './generate-result.js';
import type { LanguageModelClient, ModelCallRequest, ModelCallResult, NativeTokenCountRequest } from './language-model-client.js';
import type { CallAttribution, LlmCallRecorder } from './llm-call-record.js';
import { forwardsNatively, type NativeWireRequest, type NativeWireResponse } from './native-wire.js';
import { observeTool } from './observe-tool.js';
import { runObservedChain } from './observed-chain.js';
import type { ProviderCatalog } from './provider-catalog.js';
import type { ProviderName } from './provider-name.js';
import { recordingTelemetry, type StreamObservation } from './record-calls.js';
import { requireConfigured } from './select-provider.js';
import { withinObservation, type CallObservation, type GenerationTelemetry } from './telemetry.js';
import type { ToolDefinition } from './tool-definition.js';
import { deferred } from './deferred.js';
import type { ModerationVerdict } from '../guardrails/run-guard-checks.js';

/** 5 model↔tool round trips: NeuroLink's documented `maxSteps` default, for a call that names none. */
const DEFAULT_CALL_STEPS = 5;

/** Providers whose API refuses a call without an output limit (Anthropic's `max_tokens`; Claude on Bedrock and Vertex alike). */
const providersRequiringOutputLimit: ReadonlySet<ProviderName> = new Set(['anthropic', 'bedrock', 'vertex']);

/** One place a model call may go: a provider kind and its model (absent: the provider's default model). */
export type CallCandidate = ChainLink;

/**
 * A model call before a candidate is chosen: the `LanguageModelClient` port's request with what
 * depends on the candidate left open. Nothing is defaulted here but what a provider requires: a
 * sampling or length setting the caller left out is left out upstream (the provider's own default
 * applies), except an output limit for a provider whose API refuses a call without one.
 */
export interface ProviderCallRequest extends Omit<ModelCallRequest, 'headers' | 'abortSignal' | 'tools' | 'maxSteps' | 'confirmedTools'> {
  /** Extra request headers by provider kind: a candidate of that kind gets them, never another one on failover. */
  readonly providerHeaders?: CallControls['providerHeaders'];
  /**
   * The tools the model may run in this process, asked for only when the candidate's client runs
   * tools (gathering them may start MCP servers); absent: none.
   */
  readonly tools?: () => Promise<readonly ToolDefinition[]>;
  /** Upper bound on model↔tool round trips (default 5). */
  readonly maxSteps?: number;
  readonly confirmedTools?: ReadonlySet<string>;
}

/** Who a call is for and what bounds it, besides its request. */
export interface ProviderCallContext {
  /** What the call's `llm.call` records carry (merchant, user or key, request). */
  readonly attribution: CallAttribution;
  /** Cancels the call (a stream's too). */
  readonly abortSignal?: AbortSignal | undefined;
  /** Covers the whole call, stream included; absent: the provider's own default (a local runner's 5 minutes), else none. */
  readonly timeoutMs?: number | undefined;
  /**
   * Checks the answer before the call counts as answered (a structured answer against its schema)
   * and returns what it read from it; a throw fails the call (recorded as failed).
   */
  readonly checkAnswer?: ((result: ModelCallResult, provider: string) => unknown) | undefined;
  /** The request's telemetry when its caller observes other calls with it too (a judge); default: one recording for `attribution`. */
  readonly telemetry?: GenerationTelemetry | undefined;
  /** The merchant's credential scope when the caller resolved it already ({@link ProviderCalls.scopeOf}); default: resolved for `attribution.merchantId`. */
  readonly scope?: ScopedCatalog | undefined;
}

/** A call answered: the client that answered, its result, what `checkAnswer` read, and the candidates that failed before. */
export interface ProviderCallAnswer {
  readonly client: LanguageModelClient;
  readonly result: ModelCallResult;
  readonly object: unknown;
  readonly attempts: readonly ProviderAttempt[];
}

/**
 * A streamed call whose provider has sent its first chunk (the candidate can no longer change).
 * `textStream` can be read once; leaving it early cancels the provider request and rejects `answer`.
 */
export interface ProviderCallStream {
  readonly client: LanguageModelClient;
  readonly attempts: readonly ProviderAttempt[];
  readonly textStream: AsyncIterable<string>;
  /** Settles once `textStream` has ended (and is checked); rejects with the error the stream failed with. */
  readonly answer: Promise<Omit<ProviderCallAnswer, 'attempts' | 'client'>>;
}

/** An embed call before a candidate is chosen. */
export interface ProviderEmbedRequest {
  readonly values: readonly string[];
  readonly dimensions?: number | undefined;
}

export interface ProviderEmbedAnswer {
  readonly client: EmbeddingClient;
  readonly result: EmbeddingCallResult;
  readonly attempts: readonly ProviderAttempt[];
}

/** The providers a merchant's calls reach: its own credentials over the operator's. */
export interface ScopedCatalog {
  readonly catalog: ProviderCatalog;
  /** The providers the merchant's own credentials serve (its account pays their calls). */
  readonly ownProviders: readonly string[];
  /** The catalog of one of the merchant's named credentials (a route group candidate's `credential`); undefined: it stored none of that name. */
  readonly credentialCatalog?: ((provider: string, name: string) => ProviderCatalog | undefined) | undefined;
}

export interface ProviderCallsDeps {
  readonly catalog: ProviderCatalog;
  /**
   * The catalog of a merchant that stored provider credentials of its own (or forbade the
   * operator's); undefined: the operator's `catalog`. Read at each call, so a change applies at once.
   */
  readonly catalogFor?: ((merchantId: string) => Promise<ScopedCatalog | undefined>) | undefined;
  /** Registry price of a model (USD per 1K tokens), cache prices included. */
  readonly priceOf?: ModelPriceLookup | undefined;
  /** The registry's maximum output of a model: the limit sent where a provider requires one and the call gave none. */
  readonly maxOutputTokensOf?: ((modelId: string) => number | undefined) | undefined;
  /** Environment for `<PROVIDER>_DEFAULT_INPUT_COST` overrides. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Read at each call, so telemetry set up after construction still takes effect. */
  readonly telemetry: () => GenerationTelemetry;
  /** Monotonic milliseconds (default `performance.now`). */
  readonly clock?: (() => number) | undefined;
  /** Receives a record of every model call (the `llm.call` events); never fails a call. */
  readonly recordCall?: LlmCallRecorder | undefined;
  /** Told when `recordCall` throws. */
  readonly onRecorderError?: ((error: unknown) => void) | undefined;
}

/**
 * The provider-protocol layer: model calls to resolved candidates, under both the toolkit (which
 * validates and defaults its options, gathers tools and evaluates before and after) and the LLM
 * gateway (which maps its wires straight to a `ProviderCallRequest`, or forwards them natively).
 * It owns what every model call gets whoever asked: the client from the catalog, failover across
 * candidates before the first byte, the deadline, one span over the attempts, an `llm.call` record
 * per attempt priced from the registry (cache reads and writes included), and the registry's
 * maximum output for a provider that requires a limit.
 *
 * @remarks It adds no default of its own: NeuroLink's documented temperature and maxTokens belong
 * to the toolkit's options, so a request that leaves them out reaches the provider without them.
 */
export class ProviderCalls {
  readonly #deps: ProviderCallsDeps;
  readonly #clock: () => number;

  constructor(deps: ProviderCallsDeps) {
    this.#deps = deps;
    this.#clock = deps.clock ?? (() => performance.now());
  }

  /** The process telemetry, recording each model call it observes for `attribution` when a recorder is set (`hop`: attempts made before). */
  telemetryFor(attribution: CallAttribution, hop = 0): GenerationTelemetry {
    const inner = this.#deps.telemetry();
    if (this.#deps.recordCall === undefined) return inner;
    return recordingTelemetry(
      inner,
      {
        recorder: this.#deps.recordCall,
        attribution,
        priceOf: this.#deps.priceOf,
        env: this.#deps.env,
        clock: this.#clock,
        ...(this.#deps.onRecorderError !== undefined ? { onRecorderError: this.#deps.onRecorderError } : {}),
      },
      { attempts: hop },
    );
  }

  /**
   * Refuses a provider the caller named that is not configured, with a `ConfigurationError` naming
   * the variables to set (a named provider never silently becomes another one).
   */
  async requireConfigured(provider: ProviderName, scope?: ScopedCatalog | string): Promise<void> {
    requireConfigured((await this.#resolved(scope)).catalog, provider);
  }

  /**
   * The catalog of a merchant's calls (its own credentials over the operator's; the operator's for
   * `undefined`). Resolve it once per request and hand it to each method (`context.scope`), so a
   * request reads the merchant's credentials once whatever it calls.
   */
  async scopeOf(merchantId: string | undefined): Promise<ScopedCatalog> {
    const scoped = merchantId === undefined || this.#deps.catalogFor === undefined ? undefined : await this.#deps.catalogFor(merchantId);
    return scoped ?? { catalog: this.#deps.catalog, ownProviders: [] };
  }

  /** A scope handed in, or the scope of the merchant named. */
  #resolved(scope: ScopedCatalog | string | undefined): Promise<ScopedCatalog> {
    return typeof scope === 'object' ? Promise.resolve(scope) : this.scopeOf(scope);
  }

  /**
   * The catalog that serves `link`: the scope's, or, for a link naming one of the merchant's
   * credentials, that credential's.
   * @throws ConfigurationError when the merchant has no credential of that name (deleted since the route group named it).
   */
  #catalogOf(scope: ScopedCatalog, link: CallCandidate): ProviderCatalog {
    if (link.credential === undefined) return scope.catalog;
    const catalog = scope.credentialCatalog?.(link.provider, link.credential);
    if (catalog === undefined)
      throw new ConfigurationError(
        `the merchant has no stored ${link.provider} credential named "${link.credential}" (see /provider-credentials)`,
        link.provider,
      );
    return catalog;
  }

  /**
   * The attribution of a call made with `scope`: its records say which providers the merchant's
   * own default credentials paid, and which candidates one of its named credentials paid.
   */
  #scoped(attribution: CallAttribution, scope: ScopedCatalog, candidates: readonly CallCandidate[] = []): CallAttribution {
    const named = candidates.filter((candidate) => candidate.credential !== undefined).map((candidate) => `${candidate.provider}/${candidate.model ?? ''}`);
    if (scope.ownProviders.length === 0 && named.length === 0) return attribution;
    return {
      ...attribution,
      ...(scope.ownProviders.length > 0 ? { ownCredentialProviders: scope.ownProviders } : {}),
      ...(named.length > 0 ? { ownCredentialCandidates: named } : {}),
    };
  }

  /**
   * Calls the first candidate that answers: a retryable failure (429, 5xx, timeout, network) moves
   * on to the next, any other is the caller's answer at once.
   */
  async generate(candidates: readonly CallCandidate[], request: ProviderCallRequest, context: ProviderCallContext): Promise<ProviderCallAnswer> {
    const scope = context.scope ?? (await this.scopeOf(context.attribution.merchantId));
    const telemetry = context.telemetry ?? this.telemetryFor(this.#scoped(context.attribution, scope, candidates));
    const outcome = await runObservedChain(refusedWhenEmpty(candidates), telemetry, 'generate', (link, observed) =>
      this.#generateOnce(link, request, context, observed, this.#catalogOf(scope, link)),
    );
    return { ...outcome.value, attempts: outcome.attempts };
  }

  /** `generate` for streams: the candidate may change only before the first chunk reaches the caller. */
  async stream(candidates: readonly CallCandidate[], request: ProviderCallRequest, context: ProviderCallContext): Promise<ProviderCallStream> {
    const scope = context.scope ?? (await this.scopeOf(context.attribution.merchantId));
    const telemetry = context.telemetry ?? this.telemetryFor(this.#scoped(context.attribution, scope, candidates));
    const outcome = await runObservedChain(refusedWhenEmpty(candidates), telemetry, 'stream', (link, observed) =>
      this.#openOne(link, request, context, observed, this.#catalogOf(scope, link)),
    );
    return { ...outcome.value, attempts: outcome.attempts };
  }

  /** Embeds on the first candidate that has embeddings and answers (failover as for `generate`); each attempt recorded (`operation: embed`). */
  async embed(
    candidates: readonly CallCandidate[],
    request: ProviderEmbedRequest,
    context: Omit<ProviderCallContext, 'checkAnswer'>,
  ): Promise<ProviderEmbedAnswer> {
    const scope = context.scope ?? (await this.scopeOf(context.attribution.merchantId));
    const telemetry = context.telemetry ?? this.telemetryFor(this.#scoped(context.attribution, scope, candidates));
    const outcome = await runObservedChain(refusedWhenEmpty(candidates), telemetry, 'embed', (link, observed) =>
      this.#embedOnce(link, request, context, observed, this.#catalogOf(scope, link)),
    );
    return { ...outcome.value, attempts: outcome.attempts };
  }

  /**
   * Forwards a request natively to one candidate (only `model` rewritten), observed and recorded as
   * any model call (`hop`: the candidates tried before it, the record's `fallbackHops`).
   * @returns undefined when that client does not speak the request's wire (translate it instead).
   */
  async forward(
    candidate: CallCandidate & { readonly model: string },
    request: NativeWireRequest,
    context: { readonly attribution: CallAttribution; readonly hop: number; readonly scope?: ScopedCatalog | undefined },
  ): Promise<NativeWireResponse | undefined> {
    const scope = context.scope ?? (await this.scopeOf(context.attribution.merchantId));
    const catalog = this.#catalogOf(scope, candidate);
    const client = catalog.createClient(candidate.provider, candidate.model);
    if (!forwardsNatively(client) || !client.nativeWires.includes(request.wire)) return undefined;
    return forwardObserved(client, request, {
      telemetry: this.telemetryFor(this.#scoped(context.attribution, scope, [candidate]), context.hop),
      clock: this.#clock,
      timeoutMs: catalog.defaultTimeoutMs?.(candidate.provider),
    });
  }

  /**
   * Texts through a provider's moderation endpoint with the merchant's credentials (its own over the
   * operator's), one verdict per text. Not recorded as an `llm.call`: moderation is free and generates nothing.
   * @throws ConfigurationError when the provider is not configured; AIProviderError when it has no moderation endpoint or fails.
   */
  async moderate(provider: ProviderName, model: string, texts: readonly string[], scope?: ScopedCatalog | string): Promise<readonly ModerationVerdict[]> {
    const client = (await this.#resolved(scope)).catalog.createModerationClient?.(provider, model);
    if (client === undefined) throw new AIProviderError(`${provider} has no moderation endpoint`, provider, { code: 'INVALID_REQUEST' });
    return client.moderate(texts);
  }

  /**
   * The provider's own count of a request's input tokens, or `undefined` when it has no counting
   * endpoint for that wire. Nothing is recorded: counting is free and generates nothing. The count
   * is made with the credentials a call of the merchant would use (`scope`, or the scope of the
   * merchant named): its own key, never the operator's where the merchant forbade them.
   */
  async countInputTokens(
    candidate: CallCandidate & { readonly model: string },
    request: NativeTokenCountRequest,
    scope?: ScopedCatalog | string,
  ): Promise<number | undefined> {
    const catalog = this.#catalogOf(await this.#resolved(scope), candidate);
    // Unconfigured (the merchant forbade the operator's key and stored none): no count, never the operator's key.
    if (!catalog.isConfigured(candidate.provider)) return undefined;
    const client = catalog.createClient(candidate.provider, candidate.model);
    return client.countInputTokens === undefined ? undefined : client.countInputTokens(request);
  }

  /** The port's request for one client: its headers, its tools, the output limit it needs, the deadline's signal. */
  async #prepare(
    link: CallCandidate,
    request: ProviderCallRequest,
    context: ProviderCallContext,
    operation: 'generate' | 'stream',
    telemetry: GenerationTelemetry,
    catalog: ProviderCatalog,
  ): Promise<{ client: LanguageModelClient; call: ModelCallRequest; deadline: CallDeadline }> {
    const client = catalog.createClient(link.provider, link.model);
    const { providerHeaders, tools: toolsOf, clientTools, maxSteps, confirmedTools, maxTokens: _maxTokens, ...rest } = request;
    const offered = toolsOf === undefined || !client.supportsTools ? [] : await toolsOf();
    const tools = telemetry.enabled ? offered.map((tool) => observeTool(tool, telemetry, this.#clock)) : offered;
    const headers = providerHeaders?.[client.provider];
    // The caller's timeout wins; otherwise the provider's own default (a local runner's 5 minutes).
    const deadline = new CallDeadline(context.timeoutMs ?? catalog.defaultTimeoutMs?.(link.provider), context.abortSignal, client.provider, operation);
    const call: ModelCallRequest = {
      ...rest,
      ...(headers !== undefined ? { headers } : {}),
      ...this.#outputLimitOf(client, request.maxTokens),
      ...(tools.length > 0 ? { tools } : {}),
      ...(clientTools !== undefined && clientTools.length > 0 && client.supportsTools ? { clientTools } : {}),
      maxSteps: maxSteps ?? DEFAULT_CALL_STEPS,
      abortSignal: deadline.signal,
      confirmedTools: confirmedTools ?? new Set(),
    };
    return { client, call, deadline };
  }

  /**
   * The output limit sent: the call's own, else none, except for a provider whose API requires one
   * (Anthropic's Messages `max_tokens`): the model's maximum output from the registry, or the AI
   * SDK's own per-model maximum when the registry does not know the model.
   */
  #outputLimitOf(client: LanguageModelClient, maxTokens: number | undefined): { maxTokens?: number } {
    if (maxTokens !== undefined) return { maxTokens };
    if (!providersRequiringOutputLimit.has(client.provider)) return {};
    const maximum = this.#deps.maxOutputTokensOf?.(client.modelId);
    return maximum === undefined ? {} : { maxTokens: maximum };
  }

  async #generateOnce(
    link: CallCandidate,
    request: ProviderCallRequest,
    context: ProviderCallContext,
    telemetry: GenerationTelemetry,
    catalog: ProviderCatalog,
  ): Promise<Omit<ProviderCallAnswer, 'attempts'>> {
    const { client, call, deadline } = await this.#prepare(link, request, context, 'generate', telemetry, catalog);
    const observation = telemetry.enabled ? telemetry.startCall('generate', client.provider, client.modelId) : undefined;
    const started = this.#clock();
    try {
      const result = await deadline.race(withinObservation(observation, () => client.generate(call)));
      const object = context.checkAnswer?.(result, client.provider);
      observation?.end({
        ok: true,
        model: result.modelId || client.modelId,
        usage: result.usage,
        finishReason: result.finishReason,
        latencyMs: this.#clock() - started,
      });
      return { client, result, object };
    } catch (error) {
      const mapped = deadline.mapError(error);
      observation?.end({ ok: false, errorCode: errorCodeOf(mapped), latencyMs: this.#clock() - started });
      throw mapped;
    } finally {
      deadline.dispose();
    }
  }

  /** Opens one provider's stream and reads its first chunk: the part a fallback chain may retry. */
  async #openOne(
    link: CallCandidate,
    request: ProviderCallRequest,
    context: ProviderCallContext,
    telemetry: GenerationTelemetry,
    catalog: ProviderCatalog,
  ): Promise<Omit<ProviderCallStream, 'attempts'>> {
    const { client, call, deadline } = await this.#prepare(link, request, context, 'stream', telemetry, catalog);
    const observation: StreamObservation | undefined = telemetry.enabled ? telemetry.startCall('stream', client.provider, client.modelId) : undefined;
    const started = this.#clock();
    let iterator: AsyncIterator<string>;
    let first: IteratorResult<string>;
    let modelStream: ReturnType<LanguageModelClient['stream']>;
    try {
      modelStream = withinObservation(observation, () => client.stream(call));
      modelStream.result.catch(() => undefined);
      iterator = modelStream.textStream[Symbol.asyncIterator]();
      first = await deadline.race(iterator.next());
      observation?.firstChunk?.();
    } catch (error) {
      const mapped = deadline.mapError(error);
      observation?.end({ ok: false, errorCode: errorCodeOf(mapped), latencyMs: this.#clock() - started });
      deadline.dispose();
      throw mapped;
    }
    const answer = deferred<Omit<ProviderCallAnswer, 'attempts' | 'client'>>();
    const clock = this.#clock;
    let opened = false;
    const rest = async function* (): AsyncGenerator<string> {
      let settled = false;
      try {
        let next = first;
        while (next.done !== true) {
          yield next.value;
          next = await deadline.race(iterator.next());
        }
        const result = await deadline.race(modelStream.result);
        const object = context.checkAnswer?.(result, client.provider);
        observation?.end({
          ok: true,
          model: result.modelId || client.modelId,
          usage: result.usage,
          finishReason: result.finishReason,
          latencyMs: clock() - started,
        });
        settled = true;
        answer.resolve({ result, object });
      } catch (error) {
        const mapped = deadline.mapError(error);
        observation?.end({ ok: false, errorCode: errorCodeOf(mapped), latencyMs: clock() - started });
        settled = true;
        answer.reject(mapped);
        throw mapped;
      } finally {
        deadline.dispose();
        if (!settled) {
          const reason = new AIProviderError('the stream was closed by the consumer before its end', client.provider, { isRetryable: false });
          deadline.cancel(reason);
          await iterator.return?.();
          observation?.end({ ok: false, errorCode: 'CANCELLED', latencyMs: clock() - started });
          answer.reject(reason);
        }
      }
    };
    return {
      client,
      textStream: {
        [Symbol.asyncIterator]() {
          if (opened) throw new AIProviderError('a stream can be read only once', client.provider, { isRetryable: false });
          opened = true;
          return rest();
        },
      },
      answer: answer.promise,
    };
  }

  async #embedOnce(
    link: CallCandidate,
    request: ProviderEmbedRequest,
    context: Omit<ProviderCallContext, 'checkAnswer'>,
    telemetry: GenerationTelemetry,
    catalog: ProviderCatalog,
  ): Promise<Omit<ProviderEmbedAnswer, 'attempts'>> {
    const client = catalog.createEmbeddingClient?.(link.provider, link.model);
    if (client === undefined) throw new InvalidRequestError(`${link.provider} has no embedding models`, link.provider, 'model');
    const deadline = new CallDeadline(context.timeoutMs ?? catalog.defaultTimeoutMs?.(link.provider), context.abortSignal, client.provider, 'embed');
    const observation: CallObservation | undefined = telemetry.enabled ? telemetry.startCall('embed', client.provider, client.modelId) : undefined;
    const started = this.#clock();
    try {
      const result = await deadline.race(
        client.embed({ values: request.values, ...(request.dimensions !== undefined ? { dimensions: request.dimensions } : {}), abortSignal: deadline.signal }),
      );
      observation?.end({
        ok: true,
        model: client.modelId,
        usage: { inputTokens: result.inputTokens, outputTokens: 0, totalTokens: result.inputTokens },
        latencyMs: this.#clock() - started,
      });
      return { client, result };
    } catch (error) {
      const mapped = deadline.mapError(error);
      observation?.end({ ok: false, errorCode: errorCodeOf(mapped), latencyMs: this.#clock() - started });
      throw mapped;
    } finally {
      deadline.dispose();
    }
  }
}

/** A call needs somewhere to go: an empty list is the caller's mistake, named as the toolkit names it. */
function refusedWhenEmpty(candidates: readonly CallCandidate[]): readonly CallCandidate[] {
  if (candidates.length === 0) throw new InvalidRequestError('a route needs at least one candidate', 'toolkit', 'model');
  return candidates;
}
