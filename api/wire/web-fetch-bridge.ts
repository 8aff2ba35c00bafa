import type { FastifyReply, FastifyRequest } from 'fastify';
import { hijackedHead } from '../plugins/security-headers.js';

/**
 * Fastify ↔ the Fetch API, for a handler that speaks web-standard Request/Response (the MCP SDK's
 * streamable HTTP transport): the request rebuilt without its body, the answer written on the hijacked
 * socket with backpressure.
 */

/** Request headers the Fetch API's Request computes itself (or refuses). */
const hopHeaders = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade']);

/** The request as the SDK's web-standard transport reads it; the body goes separately (already parsed by fastify). */
export function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || hopHeaders.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return new Request(`http://${request.host}${request.url}`, { method: request.method, headers });
}

/** Writes the transport's answer on the hijacked socket: head, then the body (an SSE stream stays open) until it ends or the client leaves. */
export async function sendWebResponse(reply: FastifyReply, response: Response): Promise<void> {
  const raw = reply.raw;
  const own: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    own[name] = value;
  });
  raw.writeHead(response.status, hijackedHead(reply, own));
  const body = response.body;
  if (body === null) {
    raw.end();
    return;
  }
  // An SSE stream's first event may be minutes away (a standalone stream carries only notifications):
  // the client must have the head now, or it cannot tell the stream is open.
  raw.flushHeaders();
  const reader = body.getReader();
  // The client left: cancelling the stream lets the transport forget it (a standalone stream can be reopened).
  const cancel = () => void reader.cancel().catch(() => undefined);
  raw.once('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || raw.destroyed) break;
      if (!raw.write(value)) await drained(raw);
    }
  } finally {
    raw.off('close', cancel);
    raw.end();
  }
}

function drained(raw: FastifyReply['raw']): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      raw.off('drain', done);
      raw.off('close', done);
      resolve();
    };
    raw.once('drain', done);
    raw.once('close', done);
  });
}
