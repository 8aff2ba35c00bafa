import type { AIProviderError } from './errors/ai-provider-error.js';
import type { TokenUsage } from './language-model-client.js';

/**
 * The provider wires a request can be passed through on unchanged (issue 34): Anthropic's
 * Messages API, OpenAI's Responses API and OpenAI's Chat Completions (which many servers speak).
 */
export type NativeWire = 'anthropic-messages' | 'openai-responses' | 'openai-chat';

/**
 * One request to forward as its client sent it: the JSON body, of which only `model` is rewritten
 * (to the provider's model id), and the client headers the wire defines (`anthropic-version`,
 * `anthropic-beta`). Credentials are the provider client's own, never the caller's.
 */
export interface NativeWireRequest {
  readonly wire: NativeWire;
  readonly body: Readonly<Record<string, unknown>>;
  /** Client headers passed on to the provider (the adapter adds its credentials after them). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Whether the body asks for a stream (`stream: true`): the answer is then server-sent events. */
  readonly stream: boolean;
  readonly abortSignal?: AbortSignal;
}

/** One server-sent event as the provider sent it: its `event:` name (when it had one) and its `data:` text. */
export interface NativeWireEvent {
  readonly event?: string;
  readonly data: string;
}

/** What a forwarded call consumed and which model answered, read from the provider's own usage. */
export interface NativeWireSummary {
  /**
   * The provider's usage mapped onto the toolkit's (cache and reasoning fields included); `estimated`
   * when the provider reported none (an OpenAI chat stream without `stream_options.include_usage`).
   */
  readonly usage: TokenUsage;
  readonly estimated: boolean;
  /** The model the provider says answered (its own id, e.g. a dated snapshot). */
  readonly model: string;
  /** Why the model stopped, in the toolkit's names (`stop`, `length`, `tool-calls`, `content-filter`), when the provider said. */
  readonly finishReason?: string;
}

/**
 * A forwarded call's answer, exactly as the provider gave it: a JSON body (its text untouched), or
 * its server-sent events in order, or the provider's own error. Failures before an answer (network,
 * timeout, an error event before the first content event) reject with a toolkit error instead.
 */
export type NativeWireResponse =
  | {
      readonly kind: 'json';
      readonly status: number;
      readonly contentType: string;
      /** The body's text as received. */
      readonly body: string;
      readonly summary: NativeWireSummary;
    }
  | {
      readonly kind: 'stream';
      /**
       * The events in order, the first already received (so the call cannot fail over any more).
       * Iterating throws the toolkit's error when the stream breaks after that.
       */
      readonly events: AsyncIterable<NativeWireEvent>;
      /**
       * Settles once the stream's terminal event has been read (before it is handed on; see
       * `isTerminalEvent`), or at its end: the stream's usage and model; rejects when it broke first.
       */
      readonly summary: Promise<NativeWireSummary>;
    }
  | {
      /** The provider refused (a non-2xx status): its body and status, and the toolkit error it maps to (`isRetryable`). */
      readonly kind: 'error';
      readonly status: number;
      readonly contentType: string;
      readonly body: string;
      /** The provider's headers a client acts on (`retry-after`, rate-limit headers), passed on with the refusal. */
      readonly headers: Readonly<Record<string, string>>;
      readonly error: AIProviderError;
    };

/**
 * Whether an event ends its stream's answer (Chat Completions' `[DONE]`, Anthropic's `message_stop`,
 * the Responses API's `response.completed`/`.incomplete`/`.failed`): the answer and its usage are
 * whole once it has arrived, whatever happens to the connection afterwards (a client that closes
 * as soon as it reads it).
 */
export function isTerminalEvent(wire: NativeWire, event: NativeWireEvent): boolean {
  if (wire === 'openai-chat') return event.data === '[DONE]';
  if (wire === 'anthropic-messages') return event.event === 'message_stop';
  return event.event === 'response.completed' || event.event === 'response.incomplete' || event.event === 'response.failed';
}

/**
 * The provider-protocol side of a `LanguageModelClient` (issue 34): the wires its provider speaks
 * natively, and forwarding a request in one of them. A client without it is reached only through
 * translation.
 */
export interface NativeWireClient {
  /** The wires `forward` passes through unchanged. */
  readonly nativeWires: readonly NativeWire[];
  /**
   * Forwards a request in one of `nativeWires` to the provider as its client sent it (only `model`
   * rewritten). Rejects as `generate` does (the toolkit's provider errors) for failures before an
   * answer; a provider's refusal is an answer of kind `error`, carrying the toolkit error it maps to.
   */
  forward(request: NativeWireRequest): Promise<NativeWireResponse>;
}

/** Whether a client passes requests of some wire through natively. */
export function forwardsNatively<T extends object>(client: T): client is T & NativeWireClient {
  return (
    'forward' in client &&
    typeof (client as Partial<NativeWireClient>).forward === 'function' &&
    Array.isArray((client as Partial<NativeWireClient>).nativeWires)
  );
}
