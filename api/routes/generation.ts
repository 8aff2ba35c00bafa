import { toolkitReservationUsd } from '../../src/toolkit/call-reservation.js';
import { callAttributionOf } from '../wire/call-attribution.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GenerateRequest } from '../../src/generated/schema-types.js';
import { InvalidRequestError } from '../../src/generation/errors/provider-errors.js';
import type { GenerateOptions } from '../../src/generation/generate-options.js';
import type { GenerateResult } from '../../src/generation/generate-result.js';
import type { CallAttribution } from '../../src/generation/llm-call-record.js';
import type { NeuroLink } from '../../src/toolkit/neurolink.js';
import type { ProviderStatus } from '../../src/toolkit/provider-status.js';
import { ProviderStatusProbe } from '../../src/toolkit/provider-status-probe.js';
import { ref } from '../http-schemas.js';
import { filesOf, GENERATE_BODY_LIMIT_BYTES } from '../wire/generate-files.js';
import { abortOnDisconnect, sendStream, type Streamed } from '../wire/toolkit-stream.js';
import { guardrailHeader, parseGuardrailHeader } from '../../src/guardrails/guardrail-resolver.js';

export interface GenerationRouteDeps {
  readonly toolkit: NeuroLink;
  readonly now?: () => Date;
  /** The live provider probe of /api/status; default one over `toolkit` with its default TTL and bounds. */
  readonly statusProbe?: ProviderStatusProbe;
}

const tags = ['Generation'];
const guard = { auth: 'either', merchantFrom: 'credential' } as const;

/**
 * The most a generate/stream request can cost, held against its key's budget while it runs: the
 * whole input it will send (remembered history, memory's summary call, documents' text), not only its prompt.
 */
function generationReserve(toolkit: NeuroLink) {
  return (request: FastifyRequest): Promise<number> => {
    const signal = new AbortController().signal;
    return toolkitReservationUsd(toolkit, toGenerateOptions(request.body as GenerateRequest, callAttributionOf(request, 'http'), signal));
  };
}

/** The toolkit's options from a request body; the text is `input.text` or the demo server's `prompt`. */
function toGenerateOptions(body: GenerateRequest, attribution: CallAttribution, abortSignal: AbortSignal, guardHeader?: string | string[]): GenerateOptions {
  const { prompt, input, files, ...rest } = body;
  const text = input?.text ?? prompt;
  if (text === undefined) throw new InvalidRequestError('Prompt is required: send input.text (or prompt)', 'toolkit', 'input.text');
  const documents = filesOf(files);
  // x-switchyard-guardrails: guards this request adds (issue 38); the toolkit combines them, only ever stricter.
  const guardrails = guardHeader === undefined ? undefined : parseGuardrailHeader(Array.isArray(guardHeader) ? guardHeader.join(',') : guardHeader);
  return {
    ...(rest as Omit<GenerateOptions, 'input'>),
    ...(documents !== undefined ? { files: documents } : {}),
    ...(guardrails !== undefined ? { guardrails } : {}),
    input: { text },
    attribution,
    abortSignal,
  };
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

/** The clock of the answers' timestamps. */
function clockOf(deps: GenerationRouteDeps): () => Date {
  return deps.now ?? (() => new Date());
}

/** These routes take documents (`files`): their body limit is 24 MiB, or the app's when that is larger. */
function bodyLimitOf(app: FastifyInstance): number {
  return Math.max(app.initialConfig.bodyLimit ?? 0, GENERATE_BODY_LIMIT_BYTES);
}

/** The guard of the generate and stream routes: the key's llm limits, the worst-case cost reserved. */
function limitedGuard(deps: GenerationRouteDeps) {
  return { ...guard, keyLimits: { kind: 'llm', reserveUsd: generationReserve(deps.toolkit) } } as const;
}

function registerGenerate(app: FastifyInstance, deps: GenerationRouteDeps): void {
  const now = clockOf(deps);
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
      config: limitedGuard(deps),
      bodyLimit: bodyLimitOf(app),
    },
    async (request, reply) => {
      const disconnect = abortOnDisconnect(request, reply);
      try {
        const result = await deps.toolkit.generate(
          toGenerateOptions(request.body, callAttributionOf(request, 'http'), disconnect.signal, request.headers[guardrailHeader]),
        );
        return toGenerateResponse(result, now());
      } finally {
        disconnect.done();
      }
    },
  );
}

function registerStream(app: FastifyInstance, deps: GenerationRouteDeps): void {
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
      config: limitedGuard(deps),
      bodyLimit: bodyLimitOf(app),
    },
    async (request, reply) => {
      const disconnect = abortOnDisconnect(request, reply);
      let streamed: Streamed;
      try {
        streamed = await deps.toolkit.stream(
          toGenerateOptions(request.body, callAttributionOf(request, 'sse'), disconnect.signal, request.headers[guardrailHeader]),
        );
      } catch (error) {
        disconnect.done();
        throw error;
      }
      await sendStream(request, reply, streamed, disconnect);
    },
  );
}

/** One provider in the `/api/status` answer: its settings and, when configured, its last probe. */
function providerView(status: ProviderStatus) {
  return {
    available: status.status === 'working',
    configured: status.configured,
    status: status.status,
    ...(status.model !== undefined ? { model: status.model } : {}),
    ...(status.missing !== undefined ? { missing: status.missing } : {}),
    ...(status.authenticated !== undefined ? { authenticated: status.authenticated } : {}),
    ...(status.responseTime !== undefined ? { responseTime: status.responseTime } : {}),
    ...(status.error !== undefined ? { error: status.error.slice(0, 300) } : {}),
  };
}

/** The `/api/status` answer: each provider's probed state, the one auto selection picks, and the probe round. */
async function providerStatusView(toolkit: NeuroLink, probe: ProviderStatusProbe, now: Date) {
  const round = await probe.status();
  const providers = Object.fromEntries(round.statuses.map((status) => [status.provider, providerView(status)]));
  let bestProvider: string | null = null;
  try {
    bestProvider = (await toolkit.getBestProvider()) ?? null;
  } catch {
    bestProvider = null; // nothing configured: reported, not an error of this route
  }
  return {
    timestamp: now.toISOString(),
    providers,
    bestProvider,
    probe: { checkedAt: new Date(round.checkedAt).toISOString(), ttlSeconds: round.ttlMs / 1000, cached: round.cached },
    configuration: { defaultProvider: toolkit.settings.defaultProvider ?? null, streamingEnabled: true, fallbackEnabled: true },
  };
}

function registerStatus(app: FastifyInstance, deps: GenerationRouteDeps): void {
  const now = clockOf(deps);
  const probe = deps.statusProbe ?? new ProviderStatusProbe(deps.toolkit);
  app.get(
    '/api/status',
    {
      schema: {
        tags,
        summary: 'Providers this service can use, each configured one probed live (1-token call, cached for the TTL), and the one auto selection picks',
        description:
          'Each configured provider gets a 1-token probe, at most 4 at once and 5 s each; the round is kept for 60 s and shared by every caller (`probe.cached`), so polling costs one round per minute. Providers without credentials are reported from settings (`missing`) and never called.',
      },
      config: guard,
    },
    async () => providerStatusView(deps.toolkit, probe, now()),
  );
}

/**
 * Text generation over HTTP, the NeuroLink demo server's routes on the app's own auth: the
 * merchant is the credential's, and every call's `llm.call` record is attributed to it.
 */
export async function generationRoutes(app: FastifyInstance, deps: GenerationRouteDeps): Promise<void> {
  registerGenerate(app, deps);
  registerStream(app, deps);
  registerStatus(app, deps);
}
