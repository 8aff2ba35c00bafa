import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NeuroLink } from '../../src/toolkit/neurolink.js';
import { hijackedHead } from '../plugins/security-headers.js';
import { generationHttpError } from './generation-error.js';

/*
 * The wire of POST /api/stream (the NeuroLink demo server's): server-sent events `data` (start,
 * chunks), `complete` and `error`, or plain chunked text; the provider call is aborted when the
 * client goes away.
 */

/** Aborts when the client goes away before the answer is complete (the provider call is cancelled). */
export function abortOnDisconnect(request: FastifyRequest, reply: FastifyReply): { readonly signal: AbortSignal; done(): void } {
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

export type Streamed = Awaited<ReturnType<NeuroLink['stream']>>;
export type Disconnect = ReturnType<typeof abortOnDisconnect>;

/** Plain chunked text when the client asks for text/plain and not for server-sent events. */
function wantsPlainText(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/plain') && !accept.includes('text/event-stream');
}

/** Takes the socket over from fastify and writes the 200 head of a stream. */
function startStream(request: FastifyRequest, reply: FastifyReply, plain: boolean): FastifyReply['raw'] {
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
  return raw;
}

/** The chunks, then (server-sent events only) the `complete` event; stops when the client has gone. */
async function writeChunks(raw: FastifyReply['raw'], streamed: Streamed, plain: boolean, signal: AbortSignal): Promise<void> {
  const { streamId } = streamed.metadata;
  for await (const chunk of streamed.stream) {
    if (signal.aborted) break;
    raw.write(plain ? chunk.content : sseEvent('data', { type: 'chunk', content: chunk.content }));
  }
  if (signal.aborted) return;
  const final = await streamed.final;
  if (plain) return;
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

/** A failure after the head was sent: an `error` event (or a plain error line), unless the client left. */
function writeStreamFailure(request: FastifyRequest, raw: FastifyReply['raw'], error: unknown, streamId: string, plain: boolean, aborted: boolean): void {
  if (aborted) {
    request.log.info({ streamId }, 'stream aborted: the client disconnected');
    return;
  }
  const mapped = generationHttpError(error);
  request.log.warn({ code: mapped?.body.code ?? 'INTERNAL', streamId }, 'stream failed after it started');
  const message = mapped?.body.error ?? 'the stream failed';
  raw.write(plain ? `\nError: ${message}` : sseEvent('error', { type: 'error', code: mapped?.body.code ?? 'INTERNAL', error: message, streamId }));
}

/** Sends a started toolkit stream over the hijacked socket, and ends it whatever happens. */
export async function sendStream(request: FastifyRequest, reply: FastifyReply, streamed: Streamed, disconnect: Disconnect): Promise<void> {
  const plain = wantsPlainText(request);
  const raw = startStream(request, reply, plain);
  const { streamId } = streamed.metadata;
  if (!plain) raw.write(sseEvent('data', { type: 'start', streamId, provider: streamed.provider, model: streamed.model }));
  try {
    await writeChunks(raw, streamed, plain, disconnect.signal);
  } catch (error) {
    writeStreamFailure(request, raw, error, streamId, plain, disconnect.signal.aborted);
  } finally {
    disconnect.done();
    raw.end();
  }
}
