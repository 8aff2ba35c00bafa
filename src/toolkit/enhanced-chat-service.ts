import { SseDecoder } from '../generation/chat/sse-events.js';
import type { StreamOptions } from '../generation/generate-options.js';
import type { StreamResult, UsageData } from '../generation/generate-result.js';
import { viaWebSocket } from './websocket-chat-client.js';

export interface StreamChatRequest {
  readonly prompt: string;
  readonly onChunk?: (content: string) => void;
  readonly onComplete?: (result: { readonly content: string; readonly usage?: UsageData; readonly provider?: string; readonly model?: string }) => void;
  readonly onError?: (error: Error) => void;
  readonly options?: Omit<StreamOptions, 'input' | 'prompt'>;
  readonly signal?: AbortSignal;
}

export interface EnhancedChatServiceOptions {
  /** Chat through a Switchyard service's `POST /api/stream` (server-sent events). */
  readonly baseUrl?: string;
  /** The service credential: an API key (`DE_…`) or a session JWT. */
  readonly apiKey?: string;
  /** Or chat in process through a toolkit (a `NeuroLink`). */
  readonly toolkit?: { stream(options: StreamOptions): Promise<StreamResult> };
  readonly provider?: string;
  /** Chat with a service over `POST /api/stream` (default true). */
  readonly enableSSE?: boolean;
  /** Chat with a service over its WebSocket `/api/chat/ws` instead (default false; takes precedence over SSE). */
  readonly enableWebSocket?: boolean;
  /**
   * When given, `onChunk` gets the text coalesced: a piece is passed on once `bufferSize` bytes
   * (default 8192) are held or `latencyTarget` ms (default 100) after the first held byte, whichever
   * comes first. `compressionEnabled` (default true) asks for compressed transfer (permessage-deflate
   * on the WebSocket, gzip on SSE); false asks for none. Without it, chunks pass as they arrive.
   */
  readonly streamingConfig?: { readonly bufferSize?: number; readonly compressionEnabled?: boolean; readonly latencyTarget?: number };
  /** Test seam: the fetch to use (default the global one). */
  readonly fetch?: typeof fetch;
}

export interface EnhancedChatService {
  /** Streams one answer: `onChunk` per piece, then `onComplete` (or `onError`); resolves with the whole text. */
  streamChat(request: StreamChatRequest): Promise<string>;
}

/**
 * NeuroLink's enhanced chat service (`streamChat` with `onChunk`/`onComplete`), for real: either a
 * client of a Switchyard service's SSE endpoint, or in process over a toolkit. Errors reach
 * `onError` and reject the returned promise.
 */
export function createEnhancedChatService(options: EnhancedChatServiceOptions): EnhancedChatService {
  if (options.toolkit === undefined && options.baseUrl === undefined)
    throw new TypeError('createEnhancedChatService needs a baseUrl (a Switchyard service) or a toolkit');
  const transport = transportOf(options);
  return {
    async streamChat(request) {
      const coalescer = options.streamingConfig === undefined ? undefined : new ChunkCoalescer(options.streamingConfig, request.onChunk);
      const chunked: StreamChatRequest = coalescer === undefined ? request : { ...request, onChunk: (content) => coalescer.push(content) };
      try {
        const result =
          transport === 'toolkit'
            ? await viaToolkit(options, chunked)
            : transport === 'websocket'
              ? await viaWebSocket(options, chunked)
              : await viaService(options, chunked);
        coalescer?.end();
        request.onComplete?.(result);
        return result.content;
      } catch (caught) {
        coalescer?.cancel();
        const error = caught instanceof Error ? caught : new Error(String(caught));
        request.onError?.(error);
        throw error;
      }
    },
  };
}

/** Which way a chat goes; a combination that names no usable transport is refused here, at creation. */
function transportOf(options: EnhancedChatServiceOptions): 'toolkit' | 'sse' | 'websocket' {
  if (options.toolkit !== undefined) {
    if (options.enableWebSocket === true) throw new TypeError('enableWebSocket needs a baseUrl: an in-process toolkit chat has no WebSocket');
    return 'toolkit';
  }
  if (options.enableWebSocket === true) return 'websocket';
  if (options.enableSSE === false) throw new TypeError('enableSSE is false and enableWebSocket is not true: no transport left to chat with the service over');
  return 'sse';
}

/** Passes text on in pieces of `bufferSize` bytes, or after `latencyTarget` ms, whichever comes first. */
class ChunkCoalescer {
  private held = '';
  private timer: NodeJS.Timeout | undefined;
  private readonly bufferSize: number;
  private readonly latencyTarget: number;

  constructor(
    config: NonNullable<EnhancedChatServiceOptions['streamingConfig']>,
    private readonly emit: ((content: string) => void) | undefined,
  ) {
    this.bufferSize = Math.max(1, config.bufferSize ?? 8192);
    this.latencyTarget = Math.max(0, config.latencyTarget ?? 100);
  }

  push(content: string): void {
    this.held += content;
    if (Buffer.byteLength(this.held) >= this.bufferSize) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.latencyTarget);
  }

  end(): void {
    this.flush();
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private flush(): void {
    this.cancel();
    if (this.held === '') return;
    const piece = this.held;
    this.held = '';
    this.emit?.(piece);
  }
}

async function viaToolkit(options: EnhancedChatServiceOptions, request: StreamChatRequest) {
  const streamed = await options.toolkit!.stream({
    ...request.options,
    ...(options.provider !== undefined && request.options?.provider === undefined ? { provider: options.provider } : {}),
    input: { text: request.prompt },
    ...(request.signal !== undefined ? { abortSignal: request.signal } : {}),
  });
  let content = '';
  for await (const chunk of streamed.stream) {
    content += chunk.content;
    request.onChunk?.(chunk.content);
  }
  const final = await streamed.final;
  return { content, usage: final.usage, provider: final.provider, model: final.model };
}

async function viaService(options: EnhancedChatServiceOptions, request: StreamChatRequest) {
  const fetcher = options.fetch ?? fetch;
  // An API key goes in x-api-key (what /api/stream reads for keys); a session JWT as Bearer.
  const credential =
    options.apiKey === undefined ? {} : options.apiKey.startsWith('DE_') ? { 'x-api-key': options.apiKey } : { authorization: `Bearer ${options.apiKey}` };
  const response = await fetcher(`${options.baseUrl!.replace(/\/+$/, '')}/api/stream`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(options.streamingConfig !== undefined ? { 'accept-encoding': options.streamingConfig.compressionEnabled === false ? 'identity' : 'gzip' } : {}),
      ...credential,
    },
    body: JSON.stringify({
      ...request.options,
      ...(options.provider !== undefined && request.options?.provider === undefined ? { provider: options.provider } : {}),
      input: { text: request.prompt },
    }),
    ...(request.signal !== undefined ? { signal: request.signal } : {}),
  });
  if (!response.ok || response.body === null) {
    const text = await response.text();
    throw new Error(`chat stream refused (${response.status}): ${text.slice(0, 500)}`);
  }
  const decoder = new SseDecoder();
  const utf8 = new TextDecoder();
  let content = '';
  let complete: { usage?: UsageData; provider?: string; model?: string } | undefined;
  for await (const bytes of response.body) {
    for (const event of decoder.feed(utf8.decode(bytes as Uint8Array, { stream: true }))) {
      const data = JSON.parse(event.data) as { type?: string; content?: string; error?: string; usage?: UsageData; provider?: string; model?: string };
      if (event.event === 'error') throw new Error(data.error ?? 'the chat stream failed');
      if (data.type === 'chunk' && typeof data.content === 'string') {
        content += data.content;
        request.onChunk?.(data.content);
      } else if (event.event === 'complete') {
        complete = {
          ...(data.usage !== undefined ? { usage: data.usage } : {}),
          ...(data.provider !== undefined ? { provider: data.provider } : {}),
          ...(data.model !== undefined ? { model: data.model } : {}),
        };
      }
    }
  }
  if (complete === undefined) throw new Error('the chat stream ended before its complete event');
  return { content, ...complete };
}
