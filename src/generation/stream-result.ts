import { buildGenerateResult } from './build-result.js';
import { errorCodeOf } from './error-code-of.js';
import { AIProviderError } from './errors/ai-provider-error.js';
import type { ChainLink } from './fallback-chain.js';
import { runObservedChain } from './observed-chain.js';
import type { GenerateResult, StreamChunk, StreamResult } from './generate-result.js';
import type { CallDeadline } from './call-deadline.js';
import type { LanguageModelClient, ModelCallRequest, ModelCallResult, ModelStream } from './language-model-client.js';
import type { NormalizedRequest } from './normalize-options.js';
import type { StreamObservation } from './record-calls.js';
import { withinObservation, type CallObservation, type GenerationTelemetry } from './telemetry.js';

/** A client, the request it gets, and the deadline around one attempt. */
export interface PreparedCall {
  readonly client: LanguageModelClient;
  readonly call: ModelCallRequest;
  readonly deadline: CallDeadline;
}

export interface StreamRunParams {
  readonly links: readonly ChainLink[];
  readonly request: NormalizedRequest;
  readonly prepare: (link: ChainLink, operation: 'stream') => Promise<PreparedCall>;
  readonly telemetry: GenerationTelemetry;
  readonly clock: () => number;
  readonly streamId: string;
  readonly startTime: number;
  readonly checkSchema: (result: ModelCallResult, provider: string) => unknown;
  readonly enrich: (result: GenerateResult) => Promise<GenerateResult>;
}

interface OpenedStream {
  readonly prepared: PreparedCall;
  readonly modelStream: ModelStream;
  readonly iterator: AsyncIterator<string>;
  readonly first: IteratorResult<string>;
  readonly observation: CallObservation | undefined;
  readonly started: number;
}

/** A promise with its settle functions, marked handled so an unread end-of-stream field never crashes the process. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
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

/** Opens one provider's stream and reads its first chunk: the part a fallback chain may retry. */
async function openOne(link: ChainLink, params: StreamRunParams, telemetry: GenerationTelemetry): Promise<OpenedStream> {
  const prepared = await params.prepare(link, 'stream');
  const { client, call, deadline } = prepared;
  const observation = telemetry.enabled ? telemetry.startCall('stream', client.provider, client.modelId) : undefined;
  const started = params.clock();
  try {
    const modelStream = withinObservation(observation, () => client.stream(call));
    handled(modelStream.result);
    const iterator = modelStream.textStream[Symbol.asyncIterator]();
    const first = await deadline.race(iterator.next());
    (observation as StreamObservation | undefined)?.firstChunk?.();
    return { prepared, modelStream, iterator, first, observation, started };
  } catch (error) {
    const mapped = deadline.mapError(error);
    observation?.end({ ok: false, errorCode: errorCodeOf(mapped), latencyMs: params.clock() - started });
    deadline.dispose();
    throw mapped;
  }
}

/**
 * Runs a stream through the fallback chain and wraps it as a `StreamResult`. The timeout covers
 * the whole stream (until its last chunk and final usage), not just its creation. Leaving the
 * loop early cancels the provider request and rejects the end-of-stream Promises.
 */
export async function openStreamResult(params: StreamRunParams): Promise<StreamResult> {
  const chainStarted = params.clock();
  const outcome = await runObservedChain(params.links, params.telemetry, 'stream', (link, telemetry) => openOne(link, params, telemetry));
  const { prepared, modelStream, iterator, first, observation, started } = outcome.value;
  const { client, deadline } = prepared;
  const metadata: StreamResult['metadata'] = {
    streamId: params.streamId,
    startTime: params.startTime,
    ...(outcome.attempts.length > 0 ? { fallback: true } : {}),
  };
  const base = deferred<GenerateResult>();
  let opened = false;

  async function* chunks(): AsyncGenerator<StreamChunk> {
    let count = 0;
    let settled = false;
    try {
      let next = first;
      while (next.done !== true) {
        for (const piece of splitChunk(next.value, params.request.streamChunkSize)) {
          count += 1;
          yield { content: piece };
        }
        next = await deadline.race(iterator.next());
      }
      const result = await deadline.race(modelStream.result);
      const object = params.checkSchema(result, client.provider);
      metadata.totalChunks = count;
      const responseTime = Math.round(params.clock() - chainStarted);
      metadata.responseTime = responseTime;
      observation?.end({
        ok: true,
        model: result.modelId || client.modelId,
        usage: result.usage,
        finishReason: result.finishReason,
        latencyMs: params.clock() - started,
      });
      settled = true;
      base.resolve(
        buildGenerateResult({ provider: client.provider, requestedModel: client.modelId, call: result, object, responseTime, attempts: outcome.attempts }),
      );
    } catch (error) {
      const mapped = deadline.mapError(error);
      metadata.totalChunks = count;
      observation?.end({ ok: false, errorCode: errorCodeOf(mapped), latencyMs: params.clock() - started });
      settled = true;
      base.reject(mapped);
      throw mapped;
    } finally {
      deadline.dispose();
      if (!settled) {
        const reason = new AIProviderError('the stream was closed by the consumer before its end', client.provider, { isRetryable: false });
        metadata.totalChunks = count;
        deadline.cancel(reason);
        await iterator.return?.();
        observation?.end({ ok: false, errorCode: 'CANCELLED', latencyMs: params.clock() - started });
        base.reject(reason);
      }
    }
  }

  const final = handled(base.promise.then((result) => params.enrich(result)));
  return {
    stream: {
      [Symbol.asyncIterator]() {
        if (opened) throw new AIProviderError('a stream can be read only once', client.provider, { isRetryable: false });
        opened = true;
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
