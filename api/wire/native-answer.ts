import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NativeWireEvent, NativeWireResponse } from '../../src/generation/native-wire.js';
import { hijackedHead } from '../plugins/security-headers.js';
import { streamHeaders } from './gateway-headers.js';

/** One server-sent event as the provider sent it: its `event:` line when it had one, its data line by line. */
export function nativeEventText(event: NativeWireEvent): string {
  const data = event.data.includes('\n')
    ? event.data
        .split('\n')
        .map((line) => `data: ${line}\n`)
        .join('')
    : `data: ${event.data}\n`;
  return event.event === undefined ? `${data}\n` : `event: ${event.event}\n${data}\n`;
}

/** Where a natively forwarded answer goes, with the headers the gateway adds (routing decision, cache). */
export interface NativeAnswerTarget {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly headers: Readonly<Record<string, string>>;
  /** True once the client has gone: a failure then is nobody's to read. */
  readonly clientGone: () => boolean;
  /** The wire's own error event for a stream that breaks after its first byte (when the provider sent none). */
  readonly streamFailure: (error: unknown) => string;
}

/**
 * Sends a provider's answer as the provider gave it (issue 34): a JSON body's text with its status
 * and content type (a refusal included, so a client reads the provider's own 400), or its
 * server-sent events one by one as they arrive. A stream that breaks after its first byte cannot
 * change its status: the client reads the wire's error event instead. The response is ended either way.
 */
export async function sendNativeAnswer(target: NativeAnswerTarget, response: NativeWireResponse): Promise<unknown> {
  const { reply, request } = target;
  if (response.kind !== 'stream') {
    void reply
      .code(response.status)
      .headers(response.kind === 'error' ? { ...response.headers, ...target.headers } : target.headers)
      .header('content-type', response.contentType);
    return reply.send(response.body);
  }
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, hijackedHead(reply, { ...streamHeaders(request), 'cache-control': 'no-cache', ...target.headers }));
  try {
    for await (const event of response.events) raw.write(nativeEventText(event));
  } catch (error) {
    if (!target.clientGone()) raw.write(target.streamFailure(error));
  } finally {
    raw.end();
  }
  return reply; // hijacked: fastify sends nothing more
}
