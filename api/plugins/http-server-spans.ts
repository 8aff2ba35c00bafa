import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { routeConfigOf } from '../route-config.js';

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

const spans = new WeakMap<IncomingMessage, Span>();

/** The HTTP semconv span of one request: continues a W3C `traceparent`, ends when the answer is written or the client goes. */
function startRequestSpan(tracer: Tracer, request: IncomingMessage, response: ServerResponse): Span {
  const parent = propagation.extract(ROOT_CONTEXT, request.headers);
  const method = request.method ?? 'GET';
  const path = (request.url ?? '/').split('?')[0] ?? '/';
  const userAgent = request.headers['user-agent'];
  const span = tracer.startSpan(
    method,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': method,
        'url.path': path,
        'url.scheme': 'http',
        'network.protocol.version': request.httpVersion,
        ...(request.socket.remoteAddress !== undefined ? { 'client.address': request.socket.remoteAddress } : {}),
        ...(request.socket.localPort !== undefined ? { 'server.port': request.socket.localPort } : {}),
        ...(typeof userAgent === 'string' ? { 'user_agent.original': userAgent } : {}),
      },
    },
    parent,
  );
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    const status = response.statusCode;
    span.setAttribute('http.response.status_code', status);
    if (!response.writableFinished) span.setAttribute('error.type', 'connection_closed');
    // Server spans are errors for 5xx only (a 4xx is the client's).
    if (status >= 500) {
      span.setAttribute('error.type', String(status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  };
  response.once('finish', end);
  response.once('close', end);
  return span;
}

/**
 * HTTP server spans without auto-instrumentation: the server's request listeners run inside the
 * request's span (the incoming `traceparent` continued), with the request and response emitters
 * bound to it, so everything the request does (hooks, handler, model calls, events published) is
 * its child. Fastify's route (`onRequest`) names the span `{method} {http.route}`.
 *
 * @remarks Chosen over `@opentelemetry/instrumentation-http`: that one patches `node:http` through
 * a module hook, which in this ESM build needs a `--import` preload in every entry point (and in
 * the tests' in-process servers); this is the same context handling (`context.with` +
 * `context.bind` of the emitters) on the one server we own, with no preload and no new package.
 * Call before `listen`; a no-op when the process's OpenTelemetry is off (no tracer).
 */
export function registerHttpServerSpans(app: FastifyInstance, tracer: Tracer | undefined): void {
  if (tracer === undefined) return;
  const server = app.server;
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  for (const listener of listeners) {
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      let span = spans.get(request);
      if (span === undefined) {
        span = startRequestSpan(tracer, request, response);
        spans.set(request, span);
      }
      const active = trace.setSpan(context.active(), span);
      context.bind(active, request);
      context.bind(active, response);
      context.with(active, () => listener.call(server, request, response));
    });
  }
  app.addHook('onRequest', (request, _reply, done) => {
    const span = spans.get(request.raw);
    const route = routeConfigOf(request).url;
    if (span !== undefined && route !== undefined) {
      span.updateName(`${request.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    done();
  });
}
