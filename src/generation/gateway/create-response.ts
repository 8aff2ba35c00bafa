import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { Logger } from '../../logging/logger.js';
import type { CachedCompletion, ResponseStore, StoredResponse, StoredResponseItem } from '../../ports/state-store.js';
import { cacheAffinityOf } from './cache-affinity-key.js';
import type { ChatChunk, ChatCompletionUseCase } from './complete-chat.js';
import type { RoutedCall } from './forward-call.js';
import type { GatewayCaller } from './gateway-caller.js';
import type { RouteDecision } from './gateway-router.js';
import type { CacheStatus } from './response-cache-policy.js';
import {
  echoedRequestOf,
  inputItemsOf,
  newResponseId,
  responseOutputOf,
  responsesCacheKeySource,
  toResponsesCall,
  type ResponsesRequest,
} from './responses-request.js';

/** One Responses API request, validated by its wire's schema. */
export interface CreateResponseCall {
  readonly caller: GatewayCaller;
  readonly request: ResponsesRequest;
  /** The request's `Cache-Control` (`no-cache`, `no-store`). */
  readonly cacheControl: string | readonly string[] | undefined;
  /** Fires when the caller has gone: the provider call is cancelled. */
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** Set when the native pass-through (./forward-response.ts) hands the request over to translation. */
  readonly routed?: RoutedCall | undefined;
}

/** A response before its answer: what a stream's first events carry. */
export type ResponseDraft = Omit<StoredResponse, 'provider' | 'output' | 'finishReason' | 'usage'> & {
  /** The id the answer's message item gets (a stream announces it before its text). */
  readonly messageId: string;
};

/** What a response stream yields: text as it arrives, then the whole response (stored when asked to be). */
export type ResponseChunk = { readonly type: 'text'; readonly text: string } | { readonly type: 'done'; readonly response: StoredResponse };

export type CreateResponseOutcome =
  /** A whole response: fresh (with its routing decision), or answered from the response cache (`decision` undefined). */
  | { readonly kind: 'response'; readonly response: StoredResponse; readonly decision: RouteDecision | undefined; readonly cache: CacheStatus | undefined }
  /** A stream whose provider has answered; iterating `chunks` throws when it fails after its start. */
  | {
      readonly kind: 'stream';
      readonly draft: ResponseDraft;
      readonly decision: RouteDecision;
      readonly cache: CacheStatus | undefined;
      readonly chunks: AsyncIterable<ResponseChunk>;
    };

/** One page of a stored response's input items. */
export interface InputItemsPage {
  readonly data: readonly StoredResponseItem[];
  readonly hasMore: boolean;
}

export interface InputItemsQuery {
  readonly order: 'asc' | 'desc';
  /** The id of the item the page starts after, in `order`. */
  readonly after: string | undefined;
  readonly limit: number;
}

export interface ResponsesDeps {
  readonly chat: ChatCompletionUseCase;
  readonly store: ResponseStore;
  /** How long a stored response is kept (RESPONSES_TTL_DAYS). */
  readonly ttlS: number;
  readonly now: () => Date;
  /** Whether `input_image` parts may name an http(s) URL (GATEWAY_ALLOW_IMAGE_URLS); else only base64 data URLs. */
  readonly allowImageUrls?: boolean;
}

function notFound(id: string): SwitchyardError {
  return new SwitchyardError('SY_RESPONSE_NOT_FOUND', { message: `Response with id '${id}' not found.` });
}

/** The items a response hands on to one that continues it: its context, its input, then its output. */
function conversationOf(previous: StoredResponse | undefined): StoredResponseItem[] {
  return previous === undefined ? [] : [...previous.context, ...previous.input, ...previous.output];
}

/**
 * The gateway's Responses API (issue 23) over the one chat generation use case: the request's
 * items (after a `previous_response_id` chain's) become the provider-protocol layer's request as chat
 * completions' do, so the response cache, the learning router, failover and `llm.call` records are the same
 * code path; the answer becomes a response, kept per merchant for `ttlS` unless `store: false`.
 */
export class ResponsesUseCase {
  readonly #deps: ResponsesDeps;

  constructor(deps: ResponsesDeps) {
    this.#deps = deps;
  }

  /**
   * @throws SwitchyardError `SY_PREVIOUS_RESPONSE_NOT_FOUND` when `previous_response_id` names no
   * stored response of the merchant; `SY_GATEWAY_REQUEST_UNSUPPORTED` for input the gateway cannot send.
   */
  async create(call: CreateResponseCall): Promise<CreateResponseOutcome & { readonly ignoredTools: readonly string[] }> {
    const { request } = call;
    const previous = await previousResponseOf(this.#deps.store, call.caller.merchantId, request.previous_response_id);
    const context = conversationOf(previous);
    const input = inputItemsOf(request.input);
    const mapped = toResponsesCall(request, [...context, ...input], { allowImageUrls: this.#deps.allowImageUrls === true });
    const draft: ResponseDraft = {
      id: newResponseId('resp'),
      merchantId: call.caller.merchantId,
      createdAt: Math.floor(this.#deps.now().getTime() / 1000),
      model: request.model,
      request: echoedRequestOf(request),
      context,
      input,
      messageId: newResponseId('msg'),
    };
    const outcome = await this.#deps.chat.complete({
      caller: call.caller,
      model: request.model,
      call: mapped.call,
      prompt: mapped.prompt,
      stream: request.stream === true,
      cacheKeySource: responsesCacheKeySource(request),
      cacheControl: call.cacheControl,
      // Keyed on the whole conversation (a `previous_response_id` chain's items too): its first turn is the root.
      affinity: () => cacheAffinityOf('responses', { ...request, input: [...context, ...input] }),
      signal: call.signal,
      log: call.log,
      routed: call.routed,
    });
    const store = request.store !== false;
    if (outcome.kind === 'stream') {
      const streaming = { ...draft, model: outcome.decision.model };
      return {
        kind: 'stream',
        draft: streaming,
        decision: outcome.decision,
        cache: outcome.cache,
        chunks: this.#chunksOf(streaming, outcome.chunks, store, call.log),
        ignoredTools: mapped.ignoredTools,
      };
    }
    const response = await this.#finish(draft, outcome.answer, store, call.log);
    return outcome.kind === 'cached'
      ? { kind: 'response', response, decision: undefined, cache: 'HIT', ignoredTools: mapped.ignoredTools }
      : { kind: 'response', response, decision: outcome.decision, cache: outcome.cache, ignoredTools: mapped.ignoredTools };
  }

  /** @throws SwitchyardError `SY_RESPONSE_NOT_FOUND` (another merchant's, deleted or expired included). */
  async get(merchantId: string, id: string): Promise<StoredResponse> {
    const response = await this.#deps.store.get(merchantId, id);
    if (response === undefined) throw notFound(id);
    return response;
  }

  /** @throws SwitchyardError `SY_RESPONSE_NOT_FOUND` when there is nothing of the merchant's to delete. */
  async delete(merchantId: string, id: string): Promise<void> {
    if (!(await this.#deps.store.delete(merchantId, id))) throw notFound(id);
  }

  /** A page of the response's own input items (this turn's, not its chain's), in `order`. */
  async inputItems(merchantId: string, id: string, query: InputItemsQuery): Promise<InputItemsPage> {
    const { input } = await this.get(merchantId, id);
    const ordered = query.order === 'asc' ? input : [...input].reverse();
    const start = query.after === undefined ? 0 : ordered.findIndex((item) => item['id'] === query.after) + 1;
    const data = start === 0 && query.after !== undefined ? [] : ordered.slice(start, start + query.limit);
    return { data, hasMore: start + data.length < ordered.length && data.length > 0 };
  }

  /**
   * The conversation `previous_response_id` carries into a request (its chain's items, oldest first),
   * which the budget reservation prices beside the request's own input. Empty when there is none or
   * it is not the merchant's (`create` refuses that one).
   */
  async carriedConversation(merchantId: string, id: string | null | undefined): Promise<readonly StoredResponseItem[]> {
    if (id === undefined || id === null) return [];
    return conversationOf(await this.#deps.store.get(merchantId, id));
  }

  async #finish(draft: ResponseDraft, answer: CachedCompletion, store: boolean, log: Logger): Promise<StoredResponse> {
    const { messageId, ...rest } = draft;
    const response: StoredResponse = {
      ...rest,
      provider: answer.provider,
      model: answer.model,
      output: responseOutputOf(answer, messageId),
      finishReason: answer.finishReason,
      usage: answer.usage,
    };
    if (!store) return response;
    try {
      await this.#deps.store.put(response, this.#deps.ttlS);
    } catch (error) {
      // The answer was generated (and paid for): the caller gets it; only a later retrieve misses it.
      log.warn({ err: error, responseId: response.id }, 'stored response not kept');
    }
    return response;
  }

  async *#chunksOf(draft: ResponseDraft, chunks: AsyncIterable<ChatChunk>, store: boolean, log: Logger): AsyncGenerator<ResponseChunk> {
    for await (const chunk of chunks) {
      if (chunk.type === 'text') yield chunk;
      else yield { type: 'done', response: await this.#finish(draft, chunk.answer, store, log) };
    }
  }
}

/** The stored response a `previous_response_id` names, for both Responses paths (translated and native); unknown: a 400 naming the field. */
export async function previousResponseOf(store: ResponseStore, merchantId: string, id: string | null | undefined): Promise<StoredResponse | undefined> {
  if (id === undefined || id === null) return undefined;
  const previous = await store.get(merchantId, id);
  if (previous === undefined)
    throw new SwitchyardError('SY_PREVIOUS_RESPONSE_NOT_FOUND', {
      message: `Previous response with id '${id}' not found.`,
      details: { param: 'previous_response_id' },
    });
  return previous;
}
