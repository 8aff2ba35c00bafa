import { CallDeadline } from './call-deadline.js';
import { errorCodeOf } from './error-code-of.js';
import type { LanguageModelClient } from './language-model-client.js';
import type { NativeWireClient, NativeWireEvent, NativeWireRequest, NativeWireResponse } from './native-wire.js';
import type { StreamObservation } from './record-calls.js';
import type { GenerationTelemetry } from './telemetry.js';

/** What one observed native call needs besides its client and request. */
export interface ForwardContext {
  readonly telemetry: GenerationTelemetry;
  /** Monotonic milliseconds. */
  readonly clock: () => number;
  /** The provider's default timeout (a local runner's 5 minutes); none: the client's silence limit alone. */
  readonly timeoutMs: number | undefined;
}

/**
 * Forwards one request natively and observes it as one model call (span, metrics and the
 * `llm.call` record with the provider's own usage, cache parts included): a plain answer when it
 * arrives, a stream when its last event has passed (its first event marks the first chunk), a
 * refusal or failure as an error with the toolkit's code. The caller's signal and the provider's
 * default timeout bound the whole call, stream included.
 */
export async function forwardObserved(
  client: LanguageModelClient & NativeWireClient,
  request: NativeWireRequest,
  context: ForwardContext,
): Promise<NativeWireResponse> {
  const { telemetry, clock } = context;
  const operation = request.stream ? 'stream' : 'generate';
  const observation: StreamObservation | undefined = telemetry.enabled ? telemetry.startCall(operation, client.provider, client.modelId) : undefined;
  const deadline = new CallDeadline(context.timeoutMs, request.abortSignal, client.provider, operation);
  const started = clock();
  let response: NativeWireResponse;
  try {
    response = await deadline.race(client.forward({ ...request, abortSignal: deadline.signal }));
  } catch (error) {
    const mapped = deadline.mapError(error);
    deadline.dispose();
    observation?.end({ ok: false, errorCode: errorCodeOf(mapped), latencyMs: clock() - started });
    throw mapped;
  }
  if (response.kind === 'error') {
    deadline.dispose();
    observation?.end({ ok: false, errorCode: errorCodeOf(response.error), latencyMs: clock() - started });
    return response;
  }
  if (response.kind === 'json') {
    deadline.dispose();
    const { model, usage, finishReason } = response.summary;
    observation?.end({ ok: true, model, usage, ...(finishReason !== undefined ? { finishReason } : {}), latencyMs: clock() - started });
    return response;
  }
  observation?.firstChunk?.();
  const summary = response.summary.then(
    (done) => {
      const reason = done.finishReason !== undefined ? { finishReason: done.finishReason } : {};
      observation?.end({ ok: true, model: done.model, usage: done.usage, ...reason, latencyMs: clock() - started });
      return done;
    },
    (error: unknown) => {
      const mapped = deadline.mapError(error);
      observation?.end({ ok: false, errorCode: errorCodeOf(mapped), latencyMs: clock() - started });
      throw mapped;
    },
  );
  summary.catch(() => undefined);
  return { kind: 'stream', events: bounded(response.events, deadline), summary };
}

/** The stream's events until it ends; the deadline is released then (or when the reader stops early). */
async function* bounded(events: AsyncIterable<NativeWireEvent>, deadline: CallDeadline): AsyncGenerator<NativeWireEvent> {
  try {
    for await (const event of events) yield event;
  } catch (error) {
    throw deadline.mapError(error);
  } finally {
    deadline.dispose();
  }
}
