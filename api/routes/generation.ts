import { reservationUsd } from '../../src/governance/reservation.js';
import { DEFAULT_MAX_TOKENS } from '../../src/generation/normalize-options.js';
import { callAttributionOf } from '../wire/call-attribution.js';
import { hijackedHead } from '../plugins/security-headers.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GenerateRequest } from '../../src/generated/schema-types.js';
import { InvalidRequestError } from '../../src/generation/errors/provider-errors.js';
import type { GenerateOptions } from '../../src/generation/generate-options.js';
import type { GenerateResult } from '../../src/generation/generate-result.js';
import type { CallAttribution } from '../../src/generation/llm-call-record.js';
import type { NeuroLink } from '../../src/toolkit/neurolink.js';
import { ref } from '../http-schemas.js';
import { generationHttpError } from '../wire/generation-error.js';

export interface GenerationRouteDeps {
  readonly toolkit: NeuroLink;
  readonly now?: () => Date;
}

const tags = ['Generation'];
const guard = { auth: 'either', merchantFrom: 'credential' } as const;

/** The most a generate/stream request can cost, held against its key's budget while it runs. */
function generationReserve(toolkit: NeuroLink) {
  return (request: FastifyRequest): number => {
    const body = request.body as GenerateRequest;
    const model = body.model === undefined ? undefined : toolkit.modelRegistry?.getModelConfig(body.model);
    const prompt = (body.input?.text ?? body.prompt ?? '').length + (body.systemPrompt?.length ?? 0) + JSON.stringify(body.conversationHistory ?? []).length;
    return reservationUsd([model?.pricing], prompt, body.maxTokens ?? DEFAULT_MAX_TOKENS);
  };
}

/** The toolkit's options from a request body; the text is `input.text` or the demo server's `prompt`. */
function toGenerateOptions(body: GenerateRequest, attribution: CallAttribution, abortSignal: AbortSignal): GenerateOptions {
  const { prompt, input, ...rest } = body;
  const text = input?.text ?? prompt;
  if (text === undefined) throw new InvalidRequestError('Prompt is required: send input.text (or prompt)', 'toolkit', 'input.text');
  return { ...(rest as Omit<GenerateOptions, 'input'>), input: { text }, attribution, abortSignal };
}

/** The demo server's answer fields around a GenerateResult. */
function toGenerateResponse(result: GenerateResult, now: Date) {
  const attemptedProviders = [...result.attempts.map((attempt) => attempt.provider), result.provider];
  return {
    success: true as const,
    content: result.content,
    ...(result.object !== undefined ? { object: result.object } : {}),
    provider: result.provider,
    model: result.model,
    usage: result.usage,
    responseTime: result.responseTime,
    finishReason: result.finishReason,
    toolsUsed: result.toolsUsed,
    attemptedProviders,
    fallbackUsed: result.attempts.length > 0,
    ...(result.analytics !== undefined ? { analytics: result.analytics } : {}),
    ...(result.evaluation !== undefined ? { evaluation: result.evaluation } : {}),
    timestamp: now.toISOString(),
  };
}

/** Aborts when the client goes away before the answer is complete (the provider call is cancelled). */
function abortOnDisconnect(request: FastifyRequest, reply: FastifyReply): { readonly signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  let done = false;
  const onClose = () => {
    if (!done) controller.abort(new Error('client disconnected'));
  };
  reply.raw.once('close', onClose);
  request.raw.once('aborted', onClose);
  return {
    signal: controller.signal,
    done() {
      done = true;
      reply.raw.off('close', onClose);
      request.raw.off('aborted', onClose);
    },
  };
}

/** One server-sent event (`event:` line, one `data:` line of JSON). */
function sseEvent(event: 'data' | 'complete' | 'error', data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Text generation over HTTP, the NeuroLink demo server's routes on the app's own auth: the
 * merchant is the credential's, and every call's `llm.call` record is attributed to it.
 */
export async function generationRoutes(app: FastifyInstance, deps: GenerationRouteDeps): Promise<void> {
  const now = deps.now ?? (() => new Date());
  const limited = { ...guard, keyLimits: { kind: 'llm', reserveUsd: generationReserve(deps.toolkit) } } as const;

  app.post<{ Body: GenerateRequest }>(
    '/api/generate',
    {
      schema: {
        tags,
        summary: 'Generate text with the toolkit (provider auto-selection and fallback, tools, analytics, evaluation)',
        description:
          'Errors: 400 `INVALID_REQUEST` naming the option; 403 `USER_CONFIRMATION_REQUIRED`; 429 `RATE_LIMITED`/`QUOTA_EXCEEDED` (Retry-After when the provider gave one); 502 provider or credential failure upstream; 503 `CONFIGURATION` (no credentials here for the provider asked for); 504 `TIMEOUT`. Body: `{success:false, error, code, provider?, option?, retryAfter?, timestamp}`.',
        body: ref('GenerateRequest'),
        response: { 200: ref('GenerateResponse') },
      },
      config: limited,
    },
    async (request, reply) => {
      const disconnect = abortOnDisconnect(request, reply);
      try {
        const result = await deps.toolkit.generate(toGenerateOptions(request.body, callAttributionOf(request, 'http'), disconnect.signal));
        return toGenerateResponse(result, now());
      } finally {
        disconnect.done();
      }
    },
  );

  app.post<{ Body: GenerateRequest }>(
    '/api/stream',
    {
      schema: {
        tags,
        summary: 'Stream generated text as server-sent events (or plain chunked text with Accept: text/plain)',
        description:
          'Events: `data` `{type:"start", streamId, provider, model}`, then `data` `{type:"chunk", content}` per chunk, then `complete` `{type:"complete", streamId, usage, finishReason, totalChunks, responseTime}`; a failure after the start is an `error` event `{type:"error", code, error}`. A request the toolkit refuses before streaming gets the same JSON errors as /api/generate. Closing the connection aborts the provider call.',
        body: ref('GenerateRequest'),
        produces: ['text/event-stream', 'text/plain'],
      },
      config: limited,
    },
    async (request, reply) => {
      const disconnect = abortOnDisconnect(request, reply);
      let streamed;
      try {
        streamed = await deps.toolkit.stream(toGenerateOptions(request.body, callAttributionOf(request, 'sse'), disconnect.signal));
      } catch (error) {
        disconnect.done();
        throw error;
      }
      const plain = (request.headers.accept ?? '').includes('text/plain') && !(request.headers.accept ?? '').includes('text/event-stream');
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(
        200,
        hijackedHead(reply, {
          'content-type': plain ? 'text/plain; charset=utf-8' : 'text/event-stream; charset=utf-8',
          connection: 'keep-alive',
          'x-request-id': String(request.id),
          'x-accel-buffering': 'no',
        }),
      );
      const { streamId } = streamed.metadata;
      if (!plain) raw.write(sseEvent('data', { type: 'start', streamId, provider: streamed.provider, model: streamed.model }));
      try {
        for await (const chunk of streamed.stream) {
          if (disconnect.signal.aborted) break;
          raw.write(plain ? chunk.content : sseEvent('data', { type: 'chunk', content: chunk.content }));
        }
        if (!disconnect.signal.aborted) {
          const final = await streamed.final;
          if (!plain) {
            raw.write(
              sseEvent('complete', {
                type: 'complete',
                streamId,
                provider: final.provider,
                model: final.model,
                usage: final.usage,
                finishReason: final.finishReason,
                totalChunks: streamed.metadata.totalChunks ?? 0,
                responseTime: final.responseTime,
              }),
            );
          }
        }
      } catch (error) {
        if (!disconnect.signal.aborted) {
          const mapped = generationHttpError(error);
          request.log.warn({ code: mapped?.body.code ?? 'INTERNAL', streamId }, 'stream failed after it started');
          const message = mapped?.body.error ?? 'the stream failed';
          raw.write(plain ? `\nError: ${message}` : sseEvent('error', { type: 'error', code: mapped?.body.code ?? 'INTERNAL', error: message, streamId }));
        } else {
          request.log.info({ streamId }, 'stream aborted: the client disconnected');
        }
      } finally {
        disconnect.done();
        raw.end();
      }
    },
  );

  app.get(
    '/api/status',
    {
      schema: {
        tags,
        summary: 'Providers this service can use (from its settings; no paid probe calls) and the one auto selection picks',
      },
      config: guard,
    },
    async () => {
      const statuses = await deps.toolkit.getProviderStatus();
      const providers = Object.fromEntries(
        statuses.map((status) => [
          status.provider,
          { available: status.configured, configured: status.configured, status: status.status, ...(status.model !== undefined ? { model: status.model } : {}), ...(status.missing !== undefined ? { missing: status.missing } : {}) },
        ]),
      );
      let bestProvider: string | null = null;
      try {
        bestProvider = (await deps.toolkit.getBestProvider()) ?? null;
      } catch {
        bestProvider = null; // nothing configured: reported, not an error of this route
      }
      return {
        timestamp: now().toISOString(),
        providers,
        bestProvider,
        configuration: { defaultProvider: deps.toolkit.settings.defaultProvider ?? null, streamingEnabled: true, fallbackEnabled: true },
      };
    },
  );
}
