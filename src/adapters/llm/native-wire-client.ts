import { APICallError } from '@ai-sdk/provider';
import type { IncomingMessage } from 'node:http';
import { AIProviderError } from '../../generation/errors/ai-provider-error.js';
import {
  isTerminalEvent,
  type NativeWire,
  type NativeWireClient,
  type NativeWireEvent,
  type NativeWireRequest,
  type NativeWireResponse,
  type NativeWireSummary,
} from '../../generation/native-wire.js';
import type { ProviderName } from '../../generation/provider-name.js';
import { mapProviderError, providerMessage } from './map-provider-error.js';
import { streamTally, summaryOfBody, type StreamFailure } from './native-wire-usage.js';
import { abortReason, headersOf, readText } from './http-body.js';
import { postJson } from './post-json.js';

/** Where one wire's requests go, and the headers that authenticate them. */
export interface NativeEndpoint {
  readonly url: string;
  /** Credentials (and fixed headers), set after the client's: a client cannot replace them. */
  readonly headers: Readonly<Record<string, string>>;
  /** Headers sent when the client gave none of that name (Anthropic's `anthropic-version`). */
  readonly defaultHeaders?: Readonly<Record<string, string>>;
}

export interface NativeWireClientOptions {
  readonly provider: ProviderName;
  readonly modelId: string;
  readonly endpoints: Readonly<Partial<Record<NativeWire, NativeEndpoint>>>;
  /** The provider's own error mapping (Anthropic's typed errors), before the generic one. */
  readonly mapError?: (error: unknown) => AIProviderError | undefined;
  /** How long the provider may stay silent on a call; default 300 s (fetch's own limits). */
  readonly silenceLimitMs?: number;
}

/** 300 s: undici's headers and body timeouts, which the AI SDK's fetch applies. */
const defaultSilenceLimitMs = 300_000;

/** The HTTP statuses Anthropic gives its error types: a stream's `error` event is mapped as that status would be. */
const anthropicStatusOf: Readonly<Record<string, number>> = {
  overloaded_error: 529,
  api_error: 500,
  rate_limit_error: 429,
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
};

/**
 * The provider-protocol half of a client (issue 34): forwards a request in a wire its provider
 * speaks as the client sent it, but for `model`, on node:http with the process's pooled
 * connections, and hands back the provider's answer as received (a JSON body's text, or its
 * server-sent events one by one) while reading its usage. A stream is handed back after its first
 * event, so everything before that (refusal, network failure, an error event first) can still fail
 * over to another candidate; afterwards its events pass through as they come.
 */
export function createNativeWireClient(options: NativeWireClientOptions): NativeWireClient {
  const { provider, modelId } = options;
  const silenceLimitMs = options.silenceLimitMs ?? defaultSilenceLimitMs;
  const toError = (error: unknown): AIProviderError => options.mapError?.(error) ?? mapProviderError(provider, error);

  async function forward(request: NativeWireRequest): Promise<NativeWireResponse> {
    const endpoint = options.endpoints[request.wire];
    if (endpoint === undefined) throw new AIProviderError(`${provider}: does not speak ${request.wire}`, provider, { isRetryable: false });
    const url = new URL(endpoint.url);
    const payload = JSON.stringify({ ...request.body, model: modelId });
    const headers = { ...endpoint.defaultHeaders, ...request.headers, ...endpoint.headers };
    try {
      const { response, release } = await postJson(url, payload, headers, request.abortSignal, silenceLimitMs);
      const status = response.statusCode ?? 0;
      const contentType = String(response.headers['content-type'] ?? 'application/json');
      if (status < 200 || status >= 300) {
        const text = await readText(response, request.abortSignal).finally(release);
        const error = toError(
          new APICallError({
            message: providerMessage(text) ?? `status ${status}`,
            url: url.href,
            requestBodyValues: undefined,
            statusCode: status,
            responseHeaders: headersOf(response),
            responseBody: text,
          }),
        );
        return { kind: 'error', status, contentType, body: text, headers: clientHeadersOf(response), error };
      }
      if (!contentType.includes('text/event-stream')) {
        const text = await readText(response, request.abortSignal).finally(release);
        const body = parseObject(text);
        if (body === undefined)
          throw new AIProviderError(`${provider}: invalid ${request.wire} answer: ${text.slice(0, 200)}`, provider, { isRetryable: true });
        return { kind: 'json', status, contentType, body: text, summary: summaryOfBody(request.wire, body, modelId) };
      }
      return await streamOf(request, response, release, payload.length);
    } catch (error) {
      throw toError(error);
    }
  }

  /** The stream once its first event is in; an error event first (or an empty stream) rejects, so the call can fail over. */
  async function streamOf(request: NativeWireRequest, response: IncomingMessage, release: () => void, requestChars: number): Promise<NativeWireResponse> {
    const tally = streamTally(request.wire, modelId, requestChars);
    const source = eventsOf(response, request.abortSignal)[Symbol.asyncIterator]();
    let first: IteratorResult<NativeWireEvent>;
    try {
      first = await source.next();
    } catch (error) {
      release();
      throw error;
    }
    if (first.done === true) {
      release();
      throw new AIProviderError(`${provider}: the stream ended before its first event`, provider, { isRetryable: true });
    }
    const failedFirst = tally.take(first.value);
    if (failedFirst !== undefined) {
      response.destroy();
      release();
      throw failureError(request.wire, failedFirst);
    }
    let settle: { resolve: (summary: NativeWireSummary) => void; reject: (error: unknown) => void } | undefined;
    const summary = new Promise<NativeWireSummary>((resolve, reject) => {
      settle = { resolve, reject };
    });
    // Read by whoever records the call; a broken stream is also thrown to the iterating writer.
    summary.catch(() => undefined);
    const events = async function* (): AsyncGenerator<NativeWireEvent> {
      let failure: StreamFailure | undefined;
      try {
        yield first.value;
        for (let next = await source.next(); next.done !== true; next = await source.next()) {
          failure ??= tally.take(next.value);
          // The answer is whole at its terminal event: settled before the event is handed on.
          if (isTerminalEvent(request.wire, next.value)) {
            if (failure !== undefined) settle?.reject(failureError(request.wire, failure));
            else settle?.resolve(tally.summary());
          }
          yield next.value;
        }
        if (failure !== undefined) settle?.reject(failureError(request.wire, failure));
        else settle?.resolve(tally.summary());
      } catch (error) {
        const mapped = toError(error);
        settle?.reject(mapped);
        throw mapped;
      } finally {
        // A writer that stopped early (its client left) leaves the rest unread: the exchange is dropped.
        if (!response.complete) response.destroy();
        settle?.reject(new AIProviderError(`${provider}: the stream was not read to its end`, provider, { isRetryable: false }));
        release();
      }
    };
    return { kind: 'stream', events: events(), summary };
  }

  /** A stream's error event as the toolkit error its status would map to (Anthropic's typed errors), else a retryable provider error. */
  function failureError(wire: NativeWire, failure: StreamFailure): AIProviderError {
    if (wire === 'anthropic-messages')
      return toError(
        new APICallError({
          message: failure.message,
          url: options.endpoints[wire]?.url ?? '',
          requestBodyValues: undefined,
          statusCode: anthropicStatusOf[failure.type] ?? 500,
          responseBody: JSON.stringify({ type: 'error', error: { type: failure.type, message: failure.message } }),
        }),
      );
    return new AIProviderError(`${provider}: the stream failed: ${failure.type}: ${failure.message}`, provider, { isRetryable: true });
  }

  return { nativeWires: Object.keys(options.endpoints) as NativeWire[], forward };
}

/** Headers of a refusal a client acts on: when to retry, and the provider's rate-limit state. */
const clientHeader = /^(retry-after(-ms)?|x-ratelimit-[a-z-]+|anthropic-ratelimit-[a-z-]+|x-should-retry)$/;

function clientHeadersOf(response: IncomingMessage): Record<string, string> {
  return Object.fromEntries(Object.entries(headersOf(response)).filter(([name]) => clientHeader.test(name)));
}

/**
 * The response's server-sent events, each with its `event:` name and `data:` text (lines joined by
 * newlines), in order. Comments and `id:`/`retry:` fields are not part of any of the three wires.
 */
async function* eventsOf(response: IncomingMessage, signal: AbortSignal | undefined): AsyncGenerator<NativeWireEvent> {
  response.setEncoding('utf8');
  let buffered = '';
  let name: string | undefined;
  let data: string[] = [];
  try {
    for await (const text of response.iterator({ destroyOnReturn: false }) as AsyncIterable<string>) {
      buffered += text;
      let newline = buffered.indexOf('\n');
      while (newline !== -1) {
        const line = buffered.charCodeAt(newline - 1) === 13 ? buffered.slice(0, newline - 1) : buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line === '') {
          if (data.length > 0) yield name === undefined ? { data: data.join('\n') } : { event: name, data: data.join('\n') };
          name = undefined;
          data = [];
        } else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
        else if (line.startsWith('event:')) name = line.slice(line.startsWith('event: ') ? 7 : 6);
        newline = buffered.indexOf('\n');
      }
    }
  } catch (error) {
    throw signal?.aborted === true ? abortReason(signal) : error;
  }
  if (!response.complete) throw Object.assign(new Error('the provider closed the connection before the stream ended'), { code: 'ECONNRESET' });
  if (buffered.startsWith('data:')) data.push(buffered.slice(buffered.startsWith('data: ') ? 6 : 5));
  if (data.length > 0) yield name === undefined ? { data: data.join('\n') } : { event: name, data: data.join('\n') };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
