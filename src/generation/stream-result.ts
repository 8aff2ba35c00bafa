import { buildGenerateResult } from './build-result.js';
import { AIProviderError } from './errors/ai-provider-error.js';
import type { GenerateResult, StreamChunk, StreamResult } from './generate-result.js';
import type { NormalizedRequest } from './normalize-options.js';
import type { ProviderCallStream } from './provider-calls.js';
import { deferred } from './deferred.js';

export interface StreamResultParams {
  readonly request: Pick<NormalizedRequest, 'streamChunkSize' | 'enableAnalytics' | 'enableEvaluation'>;
  readonly clock: () => number;
  /** When the call began (`clock`), failed candidates included: the result's `responseTime` counts from here. */
  readonly started: number;
  readonly streamId: string;
  readonly startTime: number;
  readonly enrich: (result: GenerateResult) => Promise<GenerateResult>;
}

function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/**
 * A provider delta cut into pieces of at most `size` characters (`output.streaming.chunkSize`),
 * never inside a surrogate pair; an empty delta yields nothing.
 */
export function splitChunk(text: string, size: number | undefined): string[] {
  if (text === '') return [];
  if (size === undefined || text.length <= size) return [text];
  const pieces: string[] = [];
  let current = '';
  for (const character of text) {
    if (current.length + character.length > size && current !== '') {
      pieces.push(current);
      current = '';
    }
    current += character;
  }
  if (current !== '') pieces.push(current);
  return pieces;
}

/**
 * A provider-protocol layer's stream as the toolkit's `StreamResult`: deltas cut to
 * `output.streaming.chunkSize`, the whole result (analytics and evaluation when asked) once it has
 * ended. The layer's deadline covers the whole stream; leaving the loop early cancels the provider
 * request and rejects the end-of-stream Promises.
 */
export function openStreamResult(opened: ProviderCallStream, params: StreamResultParams): StreamResult {
  const { client } = opened;
  const metadata: StreamResult['metadata'] = {
    streamId: params.streamId,
    startTime: params.startTime,
    ...(opened.attempts.length > 0 ? { fallback: true } : {}),
  };
  const base = deferred<GenerateResult>();
  let opening = false;

  async function* chunks(): AsyncGenerator<StreamChunk> {
    let count = 0;
    let settled = false;
    try {
      for await (const delta of opened.textStream) {
        for (const piece of splitChunk(delta, params.request.streamChunkSize)) {
          count += 1;
          yield { content: piece };
        }
      }
      const { result, object } = await opened.answer;
      metadata.totalChunks = count;
      const responseTime = Math.round(params.clock() - params.started);
      metadata.responseTime = responseTime;
      settled = true;
      base.resolve(
        buildGenerateResult({ provider: client.provider, requestedModel: client.modelId, call: result, object, responseTime, attempts: opened.attempts }),
      );
    } catch (error) {
      metadata.totalChunks = count;
      settled = true;
      base.reject(error);
      throw error;
    } finally {
      if (!settled) {
        metadata.totalChunks = count;
        // The layer rejected its answer when the loop over its stream was left: the same reason here.
        opened.answer.then(
          () => base.reject(new AIProviderError('the stream was closed by the consumer before its end', client.provider, { isRetryable: false })),
          (reason: unknown) => base.reject(reason),
        );
      }
    }
  }

  const final = handled(base.promise.then((result) => params.enrich(result)));
  return {
    stream: {
      [Symbol.asyncIterator]() {
        if (opening) throw new AIProviderError('a stream can be read only once', client.provider, { isRetryable: false });
        opening = true;
        return chunks();
      },
    },
    provider: client.provider,
    model: client.modelId,
    metadata,
    usage: handled(base.promise.then((result) => result.usage)),
    finishReason: handled(base.promise.then((result) => result.finishReason)),
    toolCalls: handled(base.promise.then((result) => result.toolCalls)),
    toolResults: handled(base.promise.then((result) => result.toolResults)),
    ...(params.request.enableAnalytics ? { analytics: handled(final.then((result) => result.analytics as NonNullable<GenerateResult['analytics']>)) } : {}),
    ...(params.request.enableEvaluation ? { evaluation: handled(final.then((result) => result.evaluation as NonNullable<GenerateResult['evaluation']>)) } : {}),
    final,
  };
}
