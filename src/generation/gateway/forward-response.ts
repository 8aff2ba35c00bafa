import type { Logger } from '../../logging/logger.js';
import type { OpenAiFinishReason, ResponseStore, StoredResponse, StoredResponseItem } from '../../ports/state-store.js';
import type { NativeWireEvent, NativeWireResponse, NativeWireSummary } from '../native-wire.js';
import { previousResponseOf, type CreateResponseCall } from './create-response.js';
import type { ForwardCallUseCase, ForwardOutcome } from './forward-call.js';
import { echoedRequestOf, responsesCacheKeySource, type ResponsesRequest } from './responses-request.js';

export interface ForwardResponseDeps {
  readonly forward: ForwardCallUseCase;
  readonly store: ResponseStore;
  /** How long a stored response is kept (RESPONSES_TTL_DAYS). */
  readonly ttlS: number;
  readonly now: () => Date;
  /** Whether `input_image` parts may name an http(s) URL (GATEWAY_ALLOW_IMAGE_URLS). */
  readonly allowImageUrls?: boolean;
}

type Json = Readonly<Record<string, unknown>>;

/** The items a stored response hands on to one that continues it: its context, its input, then its output. */
function conversationOf(previous: StoredResponse): StoredResponseItem[] {
  return [...previous.context, ...previous.input, ...previous.output];
}

/** The request's input as items, as the client sent them (a string becomes one user message; nothing is added). */
function clientItemsOf(input: ResponsesRequest['input']): StoredResponseItem[] {
  if (input === undefined) return [];
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return [...input];
}

/** What a finished response's status and output say of why it stopped, in the stored response's terms. */
function finishReasonOf(response: Json): OpenAiFinishReason {
  const output = Array.isArray(response['output']) ? (response['output'] as Json[]) : [];
  if (output.some((item) => item['type'] === 'function_call')) return 'tool_calls';
  return response['status'] === 'incomplete' ? 'length' : 'stop';
}

function parseObject(text: string): Json | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Json) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Responses API's native pass-through to OpenAI and Azure OpenAI (issue 34), with Switchyard's
 * stored responses kept: a `previous_response_id` that names one of the merchant's stored responses
 * is expanded into `input` (its chain's items, reasoning items included, then the request's own)
 * before forwarding, and the provider's answer (its output items as they came, reasoning items
 * with their `encrypted_content` included) is kept under the provider's response id unless
 * `store: false`, so the next turn can continue it through any candidate.
 */
export class ForwardResponseUseCase {
  readonly #deps: ForwardResponseDeps;

  constructor(deps: ForwardResponseDeps) {
    this.#deps = deps;
  }

  /** @throws SwitchyardError `SY_PREVIOUS_RESPONSE_NOT_FOUND` when `previous_response_id` names no stored response of the merchant. */
  async forward(call: CreateResponseCall): Promise<ForwardOutcome> {
    const { request } = call;
    const merchantId = call.caller.merchantId;
    const previous = await previousResponseOf(this.#deps.store, merchantId, request.previous_response_id);
    const context = previous === undefined ? [] : conversationOf(previous);
    const own = clientItemsOf(request.input);
    const { previous_response_id: _previous, ...rest } = request as ResponsesRequest & Json;
    // Without a chain the body goes as the client sent it; with one, its items go before the request's.
    const body: Json = previous === undefined ? (request as unknown as Json) : { ...rest, input: [...context, ...own] };
    const forwarded = await this.#deps.forward.forward({
      caller: call.caller,
      wire: 'openai-responses',
      model: request.model,
      body,
      headers: {},
      stream: request.stream === true,
      prompt: [request.instructions ?? '', context, request.input ?? ''],
      cacheKeySource: responsesCacheKeySource(request),
      cacheControl: call.cacheControl,
      signal: call.signal,
      log: call.log,
      imageUrls: { allowImageUrls: this.#deps.allowImageUrls === true },
    });
    if (forwarded.kind !== 'native' || request.store === false) return forwarded;
    const keep = (response: Json, summary: NativeWireSummary) =>
      this.#keep({ merchantId, request, context, input: own, provider: forwarded.decision.provider, response, summary }, call.log);
    return { ...forwarded, response: await kept(forwarded.response, keep) };
  }

  /** Keeps a finished native response; a failed write is logged (the answer was generated and paid for). */
  async #keep(
    turn: {
      readonly merchantId: string;
      readonly request: ResponsesRequest;
      readonly context: readonly StoredResponseItem[];
      readonly input: readonly StoredResponseItem[];
      readonly provider: string;
      readonly response: Json;
      readonly summary: NativeWireSummary;
    },
    log: Logger,
  ): Promise<void> {
    const { response, summary } = turn;
    if (typeof response['id'] !== 'string') return;
    const stored: StoredResponse = {
      id: response['id'],
      merchantId: turn.merchantId,
      createdAt: typeof response['created_at'] === 'number' ? response['created_at'] : Math.floor(this.#deps.now().getTime() / 1000),
      provider: turn.provider,
      model: summary.model,
      request: echoedRequestOf(turn.request),
      context: turn.context,
      input: turn.input,
      output: Array.isArray(response['output']) ? (response['output'] as StoredResponseItem[]) : [],
      finishReason: finishReasonOf(response),
      usage: { inputTokens: summary.usage.inputTokens, outputTokens: summary.usage.outputTokens, totalTokens: summary.usage.totalTokens },
    };
    try {
      await this.#deps.store.put(stored, this.#deps.ttlS);
    } catch (error) {
      log.warn({ err: error, responseId: stored.id }, 'stored response not kept');
    }
  }
}

/** The answer, its response kept once finished: a plain body now, a stream's at its `response.completed` (or `.incomplete`) event. */
async function kept(response: NativeWireResponse, keep: (response: Json, summary: NativeWireSummary) => Promise<void>): Promise<NativeWireResponse> {
  if (response.kind === 'error') return response;
  if (response.kind === 'json') {
    const body = parseObject(response.body);
    if (body !== undefined) await keep(body, response.summary);
    return response;
  }
  const events = async function* (): AsyncGenerator<NativeWireEvent> {
    for await (const event of response.events) {
      // Kept before the completing event passes: a client may continue the response as soon as it reads it.
      if (event.event === 'response.completed' || event.event === 'response.incomplete') {
        const data = parseObject(event.data);
        const finished = typeof data?.['response'] === 'object' && data['response'] !== null ? (data['response'] as Json) : undefined;
        if (finished !== undefined) await keep(finished, await response.summary);
      }
      yield event;
    }
  };
  return { kind: 'stream', events: events(), summary: response.summary };
}
