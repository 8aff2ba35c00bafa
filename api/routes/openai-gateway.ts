import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { GenerateResult } from '../../src/generation/generate-result.js';
import { toGenerateOptions, UnsupportedChatRequest, type OpenAiChatRequest } from '../../src/generation/gateway/openai-chat-request.js';
import { resolveGatewayModel, type GatewayTarget } from '../../src/generation/gateway/resolve-gateway-model.js';
import type { DynamicModelRegistry } from '../../src/generation/models/dynamic-model-registry.js';
import type { NeuroLink } from '../../src/toolkit/neurolink.js';
import type { EmbeddingRequest, RouteGroup as RouteGroupBody } from '../../src/generated/schema-types.js';
import type { CallAttribution, LlmCallRecorder } from '../../src/generation/llm-call-record.js';
import { applyRouteRules, estimatePromptTokens } from '../../src/generation/gateway/route-rules.js';
import { candidateLatencyWindowKey, candidateWindowKey, learnsLatency, rankCandidates, routeAttribution, routeGroupNamePattern, routeGroupProblems, toRouteGroup, type Ranking, type RouteGroup } from '../../src/generation/gateway/route-group.js';
import { averagePrice } from '../../src/generation/models/model-config.js';
import type { StateStore } from '../../src/ports/state-store.js';
import type { RandomSource } from '../../src/decision/random-source.js';
import { ref } from '../http-schemas.js';
import { credentialMerchantOf } from '../plugins/authentication.js';
import { callAttributionOf } from '../wire/call-attribution.js';
import { hijackedHead } from '../plugins/security-headers.js';
import { reservationUsd, type TokenPrice } from '../../src/governance/reservation.js';
import { DEFAULT_MAX_TOKENS } from '../../src/generation/normalize-options.js';
import { describeValidationError } from '../wire/describe-validation-error.js';
import { generationHttpError } from '../wire/generation-error.js';
import { chatCompletionBody, chunkMaker, completionOf, replayedChunks } from '../wire/openai-chat-completion.js';
import { cacheStatusOf, createGatewayResponseCache, type GatewayResponseCache } from '../gateway-response-cache.js';
import type { CachedCompletion } from '../../src/ports/state/response-cache.js';

export interface OpenAiGatewayDeps {
  readonly toolkit: NeuroLink;
  readonly models: DynamicModelRegistry;
  /** Route groups and key defaults (configs), candidates' success-rate windows (scores), cached answers (responseCache). */
  readonly state: Pick<StateStore, 'configs' | 'scores' | 'responseCache'>;
  /** Exploration draws of the learning router. */
  readonly random: RandomSource;
  /**
   * Records what no toolkit call does: an answer served from the response cache (its `llm.call`
   * with `cacheHit`). The service's recorder (api/service-call-recorder.ts); unset, hits go unrecorded.
   */
  readonly recordCall?: LlmCallRecorder;
  readonly now?: () => Date;
}

/** Where one request goes: a single target, or a route group's ranked candidates. */
type Route =
  | { readonly kind: 'direct'; readonly target: GatewayTarget }
  | { readonly kind: 'group'; readonly group: RouteGroup; readonly ranking: Ranking };

/** OpenAI's error body. */
interface OpenAiError {
  readonly error: { readonly message: string; readonly type: string; readonly param: string | null; readonly code: string | null };
}

function openAiError(message: string, type: string, code: string | null = null, param: string | null = null): OpenAiError {
  return { error: { message, type, param, code } };
}

/** OpenAI's `type`/`code` for a toolkit error code (its HTTP status comes from the generation mapping). */
const openAiKinds: Readonly<Record<string, { readonly type: string; readonly code: string | null }>> = {
  INVALID_REQUEST: { type: 'invalid_request_error', code: null },
  CONFIGURATION: { type: 'server_error', code: 'provider_not_configured' },
  AUTHENTICATION: { type: 'server_error', code: 'upstream_authentication_failed' },
  RATE_LIMITED: { type: 'requests', code: 'rate_limit_exceeded' },
  QUOTA_EXCEEDED: { type: 'insufficient_quota', code: 'insufficient_quota' },
  TIMEOUT: { type: 'server_error', code: 'timeout' },
  PROVIDER_ERROR: { type: 'server_error', code: 'upstream_error' },
};

/**
 * Every failure of a /v1 route in OpenAI's error shape and status codes, so the official clients
 * raise their own error classes (AuthenticationError, RateLimitError, …) for them.
 */
function sendOpenAiError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if ((error as unknown) instanceof ClientGone) {
    request.log.info('gateway call cancelled: the client went away');
    // nginx's "client closed request"; nobody reads it.
    return reply.code(499).send(openAiError('client closed request', 'invalid_request_error'));
  }
  if (error.validation !== undefined) {
    const problem = describeValidationError(error.validation, error.validationContext);
    return reply.code(400).send(openAiError(`Invalid request: ${problem}`, 'invalid_request_error', null, problem.split(' ')[0] ?? null));
  }
  if (error instanceof UnsupportedChatRequest) return reply.code(400).send(openAiError(error.message, 'invalid_request_error', 'unsupported_parameter', error.param));
  if (SwitchyardError.isInstance(error)) {
    switch (error.code) {
      case 'SY_AUTH_MISSING_CREDENTIALS':
        return reply.code(401).send(openAiError(`${error.message}: send your API key as "Authorization: Bearer DE_…"`, 'invalid_request_error', 'missing_api_key'));
      case 'SY_AUTH_INVALID_TOKEN':
      case 'SY_AUTH_INVALID_API_KEY':
      case 'SY_AUTH_REVOKED_API_KEY':
        return reply.code(401).send(openAiError(`Incorrect API key provided: ${error.message}`, 'invalid_request_error', 'invalid_api_key'));
      case 'SY_AUTH_FORBIDDEN_MERCHANT':
        return reply.code(403).send(openAiError(error.message, 'invalid_request_error', 'permission_denied'));
      case 'SY_MODEL_NOT_FOUND':
        return reply.code(404).send(openAiError(error.message, 'invalid_request_error', 'model_not_found', 'model'));
      case 'SY_KEY_LIMIT_EXCEEDED': {
        // Our own limit, before any provider: OpenAI's shapes, so clients back off as they would from OpenAI.
        void reply.header('retry-after', String(error.details?.['retryAfterS'] ?? 1));
        const spent = error.details?.['limit'] === 'budget';
        return reply.code(429).send(openAiError(error.message, spent ? 'insufficient_quota' : 'requests', spent ? 'insufficient_quota' : 'rate_limit_exceeded'));
      }
      default:
        request.log.error({ err: error }, 'gateway request failed');
        return reply.code(500).send(openAiError('The server had an error while processing your request.', 'server_error'));
    }
  }
  const mapped = generationHttpError(error);
  if (mapped !== undefined) {
    const kind = openAiKinds[mapped.body.code] ?? { type: 'server_error', code: null };
    if (mapped.body.retryAfter !== undefined) void reply.header('retry-after', String(Math.ceil(mapped.body.retryAfter)));
    request.log.info({ code: mapped.body.code, provider: mapped.body.provider, status: mapped.status }, 'gateway call failed');
    return reply.code(mapped.status).send(openAiError(mapped.body.error, kind.type, kind.code, mapped.body.option ?? null));
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return reply.code(status).send(openAiError(error.message, 'invalid_request_error'));
  request.log.error({ err: error }, 'gateway request failed');
  return reply.code(500).send(openAiError('The server had an error while processing your request.', 'server_error'));
}

/** Response headers that make the routing decision visible. */
function decisionHeaders(route: Route, provider: string, model: string, hops: number): Record<string, string> {
  const approach = route.kind === 'direct' ? route.target.approach : `route_group:${route.ranking.approach}`;
  return {
    'x-switchyard-provider': provider,
    'x-switchyard-model': model,
    'x-switchyard-routing-approach': approach,
    'x-switchyard-hops': String(hops),
    ...(route.kind === 'group' ? { 'x-switchyard-route-group': route.group.name } : {}),
  };
}

/** Headers of every SSE answer. */
function streamHeaders(request: FastifyRequest): Record<string, string> {
  return { 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive', 'x-request-id': String(request.id) };
}

/**
 * Answers from the response cache: the plain body, or the whole stream at once (the client cannot
 * tell it from a fresh stream but for its speed), and records the hit. No provider, no routing.
 */
function replayHitOf(
  responseCache: GatewayResponseCache,
  request: FastifyRequest<{ Body: OpenAiChatRequest }>,
  reply: FastifyReply,
  answer: CachedCompletion,
  at: { readonly id: string; readonly created: number; readonly started: number },
): unknown {
  const headers = { 'x-switchyard-provider': answer.provider, 'x-switchyard-model': answer.model, 'x-cache': 'HIT' };
  const streamed = request.body.stream === true;
  if (!streamed) {
    void reply.headers(headers);
    responseCache.recordHit(request, answer, performance.now() - at.started, false);
    return chatCompletionBody(at.id, at.created, answer);
  }
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, hijackedHead(reply, { ...streamHeaders(request), ...headers }));
  const chunks = replayedChunks(at.id, at.created, answer, request.body.stream_options?.include_usage === true);
  raw.end(`${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`);
  responseCache.recordHit(request, answer, performance.now() - at.started, true);
  return reply; // hijacked: fastify sends nothing more
}

/** OpenAI's `encoding_format: base64`: the vector's little-endian float32 bytes, base64-encoded. */
export function base64Embedding(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

/** Why a gateway call was cancelled: its client went away first (not our failure, nobody to answer). */
class ClientGone extends Error {
  constructor() {
    super('client disconnected');
    this.name = 'ClientGone';
  }
}

/** An abort signal for the provider call that fires when the client goes away before the answer. */
function abortWhenClientLeaves(reply: FastifyReply): { readonly signal: AbortSignal; finish(): void } {
  const controller = new AbortController();
  let finished = false;
  reply.raw.once('close', () => {
    if (!finished) controller.abort(new ClientGone());
  });
  return {
    signal: controller.signal,
    finish: () => {
      finished = true;
    },
  };
}

/**
 * The OpenAI-compatible gateway: `/v1/chat/completions` (plain and streamed), `/v1/embeddings` and `/v1/models`, with
 * OpenAI's shapes, so the official clients work by changing their base URL. API keys come as
 * `Authorization: Bearer DE_…`; every call is recorded for the key's merchant (surface `gateway`).
 * Chat answers of keys with a cache setting are served from, and stored in, the response cache
 * (api/gateway-response-cache.ts) before any routing.
 */
export async function openAiGatewayRoutes(app: FastifyInstance, deps: OpenAiGatewayDeps): Promise<void> {
  const now = deps.now ?? (() => new Date());
  app.setErrorHandler(sendOpenAiError);
  const guard = { auth: 'either', merchantFrom: 'credential', apiKeyAsBearer: true } as const;
  const tags = ['OpenAI-compatible gateway'];
  const responseCache = createGatewayResponseCache({ cache: deps.state.responseCache, configs: deps.state.configs, models: deps.models, recordCall: deps.recordCall });

  const groupsOf = async (merchantId: string): Promise<readonly RouteGroup[]> => (await deps.state.configs.get(merchantId, 'llmRouteGroups')) ?? [];

  /** A merchant's route group of that name wins; else `provider/model` or a registry name. */
  /**
   * A merchant's route group of that name wins: its rules narrow the candidates for this prompt,
   * then they are ranked (success rate, and latency and cost when the group weighs them). Else
   * `provider/model` or a registry name.
   */
  async function routeOf(merchantId: string, model: string, prompt: unknown): Promise<Route> {
    const stored = (await groupsOf(merchantId)).find((candidate) => candidate.name === model);
    if (stored !== undefined) {
      const ruled = applyRouteRules(stored, { promptTokens: estimatePromptTokens(JSON.stringify(prompt)) }, (provider, candidateModel) => deps.models.getModelConfig(candidateModel, provider)?.contextWindow);
      if (ruled.kind === 'refused') throw new UnsupportedChatRequest(`No candidate of route group "${stored.name}" may serve this request under its rule "${ruled.rule}"`, 'model');
      const group: RouteGroup = { ...stored, candidates: ruled.candidates };
      const keyOf = (window: typeof candidateWindowKey) => group.candidates.map((candidate) => window(merchantId, group.name, candidate.provider, candidate.model));
      const [windows, latencyWindows] = await Promise.all([
        deps.state.scores.readWindows(keyOf(candidateWindowKey), group.bucketSize),
        learnsLatency(group) ? deps.state.scores.readWindows(keyOf(candidateLatencyWindowKey), group.bucketSize) : undefined,
      ]);
      const prices = (group.objectives?.costWeight ?? 0) > 0 ? group.candidates.map((candidate) => factsOf(candidate.provider, candidate.model)?.averagePrice) : undefined;
      return { kind: 'group', group, ranking: rankCandidates(group, windows, deps.random, { ...(latencyWindows !== undefined ? { latencyWindows } : {}), ...(prices !== undefined ? { prices } : {}) }) };
    }
    const target = resolveGatewayModel(model, deps.models);
    if (target === undefined) throw new SwitchyardError('SY_MODEL_NOT_FOUND', { message: `The model \`${model}\` does not exist: use provider/model, a registry alias (GET /v1/models) or a route group (GET /v1/route-groups)` });
    return { kind: 'direct', target };
  }

  const groupParams = { type: 'object', required: ['name'], properties: { name: { type: 'string', pattern: routeGroupNamePattern.source } } } as const;
  const factsOf = (provider: string, model: string) => {
    const found = deps.models.getModelConfig(model, provider);
    return found === undefined ? undefined : { capabilities: found.capabilities, averagePrice: averagePrice(found) };
  };

  app.put<{ Params: { name: string }; Body: RouteGroupBody }>(
    '/v1/route-groups/:name',
    { schema: { tags, summary: 'Create or replace a route group: candidates the gateway ranks by their learned success rate when `model` names the group', params: groupParams, body: ref('RouteGroup') }, config: guard },
    async (request) => {
      const problems = routeGroupProblems(request.body, factsOf);
      if (problems.length > 0) throw new UnsupportedChatRequest(`Invalid route group: ${problems.join('; ')}`, 'candidates');
      const merchantId = credentialMerchantOf(request);
      const group = toRouteGroup(request.params.name, request.body);
      const others = (await groupsOf(merchantId)).filter((existing) => existing.name !== group.name);
      await deps.state.configs.put(merchantId, 'llmRouteGroups', [...others, group], 'upsert');
      return group;
    },
  );

  app.get('/v1/route-groups', { schema: { tags, summary: "The merchant's route groups" }, config: guard }, async (request) => ({ object: 'list', data: await groupsOf(credentialMerchantOf(request)) }));

  app.get<{ Params: { name: string } }>(
    '/v1/route-groups/:name',
    { schema: { tags, summary: "A route group with each candidate's learned success rate and elimination", params: groupParams }, config: guard },
    async (request) => {
      const merchantId = credentialMerchantOf(request);
      const group = (await groupsOf(merchantId)).find((candidate) => candidate.name === request.params.name);
      if (group === undefined) throw new SwitchyardError('SY_MODEL_NOT_FOUND', { message: `No route group named \`${request.params.name}\`` });
      const windows = await deps.state.scores.readWindows(group.candidates.map((candidate) => candidateWindowKey(merchantId, group.name, candidate.provider, candidate.model)), group.bucketSize);
      return {
        ...group,
        candidates: group.candidates.map((candidate, index) => {
          const window = windows[index];
          const successRate = window === undefined || window.length === 0 ? null : window.successes / window.length;
          return { ...candidate, successRate, outcomes: window?.length ?? 0, eliminated: successRate !== null && successRate < group.eliminationThreshold };
        }),
      };
    },
  );

  app.delete<{ Params: { name: string } }>(
    '/v1/route-groups/:name',
    { schema: { tags, summary: 'Delete a route group', params: groupParams }, config: guard },
    async (request) => {
      const merchantId = credentialMerchantOf(request);
      const groups = await groupsOf(merchantId);
      if (!groups.some((group) => group.name === request.params.name)) throw new SwitchyardError('SY_MODEL_NOT_FOUND', { message: `No route group named \`${request.params.name}\`` });
      await deps.state.configs.put(merchantId, 'llmRouteGroups', groups.filter((group) => group.name !== request.params.name), 'upsert');
      return { id: request.params.name, object: 'route_group', deleted: true };
    },
  );

  /** Who a gateway call is for: the key's merchant, the session's user or the key, the route group it learns in. */
  function attributionOf(request: FastifyRequest, route: Route): CallAttribution {
    return { ...callAttributionOf(request, 'gateway'), ...(route.kind === 'group' ? routeAttribution(route.group, route.ranking) : {}) };
  }

  /** The registry prices of where `model` goes: the target, or every candidate of a route group. */
  async function pricesOf(merchantId: string, model: string): Promise<(TokenPrice | undefined)[]> {
    const group = (await groupsOf(merchantId)).find((candidate) => candidate.name === model);
    if (group !== undefined) return group.candidates.map((candidate) => deps.models.getModelConfig(candidate.model, candidate.provider)?.pricing);
    const target = resolveGatewayModel(model, deps.models);
    return [target === undefined ? undefined : deps.models.getModelConfig(target.model, target.provider)?.pricing];
  }

  /** Per-key limits on the model routes; the reservation is the dearest place the request can go. */
  const limitedChat = {
    ...guard,
    keyLimits: {
      kind: 'llm',
      reserveUsd: async (request: FastifyRequest) => {
        const body = request.body as OpenAiChatRequest;
        return reservationUsd(await pricesOf(credentialMerchantOf(request), body.model), JSON.stringify(body.messages).length, body.max_completion_tokens ?? body.max_tokens ?? DEFAULT_MAX_TOKENS);
      },
    },
  } as const;
  const limitedEmbeddings = {
    ...guard,
    keyLimits: {
      kind: 'llm',
      reserveUsd: async (request: FastifyRequest) => {
        const body = request.body as EmbeddingRequest;
        return reservationUsd(await pricesOf(credentialMerchantOf(request), body.model), JSON.stringify(body.input).length, 0);
      },
    },
  } as const;

  app.post<{ Body: EmbeddingRequest }>(
    '/v1/embeddings',
    {
      schema: { tags, summary: 'OpenAI embeddings (float or base64 vectors), routed to the provider `model` names or across a route group', body: ref('EmbeddingRequest') },
      config: limitedEmbeddings,
      // Before the schema: its coercion would turn token ids into digit strings and embed those.
      preValidation: async (request) => {
        const input = (request.body as { input?: unknown } | undefined)?.input;
        if (Array.isArray(input) && input.some((item) => typeof item !== 'string')) throw new UnsupportedChatRequest('input as token ids is not supported: send the text to embed', 'input');
      },
    },
    async (request, reply) => {
      const body = request.body;
      const merchantId = credentialMerchantOf(request);
      const route = await routeOf(merchantId, body.model, body.input);
      const controller = abortWhenClientLeaves(reply);
      const options = {
        input: body.input as string | string[],
        ...(route.kind === 'direct' ? { provider: route.target.provider, model: route.target.model } : {}),
        ...(body.dimensions !== undefined ? { dimensions: body.dimensions } : {}),
        abortSignal: controller.signal,
        attribution: attributionOf(request, route),
      };
      try {
        const result = route.kind === 'direct' ? await deps.toolkit.embed(options) : await deps.toolkit.embedAcross(route.ranking.candidates, options);
        void reply.headers(decisionHeaders(route, result.provider, result.model, result.attempts.length));
        const encode = body.encoding_format === 'base64' ? base64Embedding : (vector: readonly number[]) => vector;
        return {
          object: 'list',
          data: result.embeddings.map((vector, index) => ({ object: 'embedding', index, embedding: encode(vector) })),
          model: result.model,
          usage: { prompt_tokens: result.usage.inputTokens, total_tokens: result.usage.inputTokens },
        };
      } finally {
        controller.finish();
      }
    },
  );

  app.get('/v1/models', { schema: { tags, summary: 'Models of the registry as OpenAI lists them (`provider/model` ids)' }, config: guard }, async () => {
    const created = Math.floor(now().getTime() / 1000);
    return { object: 'list', data: deps.models.getAllModels().map((model) => ({ id: `${model.provider}/${model.id}`, object: 'model', created, owned_by: model.provider })) };
  });

  app.post<{ Body: OpenAiChatRequest }>(
    '/v1/chat/completions',
    {
      schema: {
        tags,
        summary: 'OpenAI chat completions (plain, or streamed with stream_options.include_usage), routed to the provider `model` names; answered from the response cache for a key with one (x-cache: HIT | MISS | BYPASS, Cache-Control no-cache / no-store)',
        body: ref('ChatCompletionRequest'),
      },
      config: limitedChat,
    },
    async (request, reply) => {
      const started = performance.now();
      const body = request.body;
      const merchantId = credentialMerchantOf(request);
      const id = `chatcmpl-${randomUUID()}`;
      const created = Math.floor(now().getTime() / 1000);
      const plan = await responseCache.planOf(request, merchantId, body);
      const hit = plan === undefined ? undefined : await responseCache.lookup(plan, request.log);
      if (hit !== undefined) return replayHitOf(responseCache, request, reply, hit, { id, created, started });
      const cacheHeaders = plan === undefined ? {} : { 'x-cache': cacheStatusOf(plan, false) };

      const route = await routeOf(merchantId, body.model, body.messages);
      const controller = abortWhenClientLeaves(reply);
      const options = {
        ...toGenerateOptions(body),
        ...(route.kind === 'direct' ? { provider: route.target.provider, model: route.target.model } : {}),
        abortSignal: controller.signal,
        attribution: attributionOf(request, route),
      };

      if (body.stream !== true) {
        try {
          const result: GenerateResult = route.kind === 'direct' ? await deps.toolkit.generate(options) : await deps.toolkit.generateAcross(route.ranking.candidates, options);
          const answer = completionOf(result, result.object !== undefined ? JSON.stringify(result.object) : result.content);
          if (plan !== undefined) await responseCache.store(plan, answer, request.log);
          void reply.headers({ ...decisionHeaders(route, result.provider, result.model, result.attempts.length), ...cacheHeaders });
          return chatCompletionBody(id, created, answer);
        } finally {
          controller.finish();
        }
      }

      const streamed = route.kind === 'direct' ? await deps.toolkit.stream(options) : await deps.toolkit.streamAcross(route.ranking.candidates, options);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(
        200,
        hijackedHead(reply, {
          ...streamHeaders(request),
          ...decisionHeaders(route, streamed.provider, streamed.model, streamed.metadata.fallback === true ? 1 : 0),
          ...cacheHeaders,
        }),
      );
      const make = chunkMaker(id, created, streamed.model);
      const send = (data: unknown) => raw.write(`data: ${JSON.stringify(data)}\n\n`);
      try {
        send(make.chunk({ role: 'assistant', content: '' }, null));
        const pieces: string[] = [];
        for await (const piece of streamed.stream) {
          pieces.push(piece.content);
          send(make.chunk({ content: piece.content }, null));
        }
        const answer = completionOf(await streamed.final, pieces.join(''));
        if (answer.toolCalls.length > 0) send(make.chunk(make.toolCallsDelta(answer), null));
        send(make.chunk({}, answer.finishReason));
        if (body.stream_options?.include_usage === true) send(make.usageChunk(answer.usage));
        // Stored before [DONE]: a client that asks again as soon as its stream ends finds it.
        if (plan !== undefined) await responseCache.store(plan, answer, request.log);
        raw.write('data: [DONE]\n\n');
      } catch (error) {
        if (!controller.signal.aborted) {
          // After the first byte the status is sent: OpenAI's clients read an `error` object in the stream.
          const mapped = generationHttpError(error);
          const kind = openAiKinds[mapped?.body.code ?? ''] ?? { type: 'server_error', code: null };
          send(openAiError(mapped?.body.error ?? 'the stream failed', kind.type, kind.code));
        }
      } finally {
        controller.finish();
        raw.end();
      }
    },
  );
}
