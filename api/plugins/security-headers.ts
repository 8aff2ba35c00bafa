import type { FastifyInstance, FastifyReply, RouteOptions } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import { routeConfigOf } from '../route-config.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * This route's Content-Security-Policy, for routes that serve a page instead of JSON; `false`
     * sends none. Unset: the API policy (`default-src 'none'; frame-ancestors 'none'`). A handler
     * that sets the header itself (the dashboard does) overrides either.
     */
    contentSecurityPolicy?: string | false;
    /** The headers this route's responses start with, worked out once by the onRoute hook below. */
    securityHeaders?: Readonly<Record<string, string>>;
  }
}

/**
 * The policy of JSON answers: nothing may be loaded or run by them, and no page may frame them.
 * A browser that renders an API answer (a mistyped URL, a hostile link) gets an inert document.
 */
export const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'";

/**
 * Swagger UI at /docs: its own scripts and styles only (it has no inline script; it sets inline
 * styles, hence 'unsafe-inline' for styles alone), images also as data: URLs, never framed.
 */
export const docsContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * What every response starts with (helmet's choices for an API, written out):
 * - `x-content-type-options: nosniff`: a browser never guesses a type (a JSON error echoing input is not HTML);
 * - `x-frame-options: DENY` and CSP `frame-ancestors 'none'`: no clickjacking through frames, old and new browsers;
 * - `referrer-policy: no-referrer`: URLs of this service (ids in paths) never leak to other sites;
 * - `cache-control: no-store`: answers carry tokens, raw API keys, merchant data; no browser or proxy
 *   keeps them. Routes that serve cacheable files set their own (dashboard assets, /docs/static).
 *
 * @remarks Left out on purpose: Strict-Transport-Security (TLS ends at the operator's proxy, which
 * knows whether HTTPS is the only way in and should set it), and the cross-origin isolation
 * headers (COOP/COEP/CORP), which concern pages, not JSON, and CORP would get in the way of the
 * CORS origins an operator configures.
 */
export const baseSecurityHeaders: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'content-security-policy': apiContentSecurityPolicy,
});

function headersFor(policy: string | false | undefined): Readonly<Record<string, string>> {
  if (policy === undefined || policy === apiContentSecurityPolicy) return baseSecurityHeaders;
  const headers: Record<string, string> = { ...baseSecurityHeaders };
  if (policy === false) delete headers['content-security-policy'];
  else headers['content-security-policy'] = policy;
  return Object.freeze(headers);
}

/**
 * Security headers on every response, 404s and errors included. Registered at the root before any
 * route, so its onRoute hook sees them all.
 *
 * Cheap on purpose (the decide route answers thousands of times a second): each route's header set
 * is built once when the route is added, and a request only copies that frozen object into the
 * reply's headers in one synchronous onRequest hook. Error answers keep them (fastify's error
 * handler only replaces content-type and content-length); a handler that sets one of these headers
 * itself wins, which is how the dashboard sends its own CSP and cache rules.
 *
 * @remarks Streams that take over the socket (`reply.hijack()`, the SSE routes) write their own
 * head: they build it with {@link hijackedHead}, so they get these too.
 */
/**
 * The head of a response a route writes itself after `reply.hijack()` (SSE streams): its own
 * headers, then what the hooks already set on the reply (these security headers, CORS, the
 * request id), which win, so a stream is as locked down as any JSON answer (`no-store` included).
 */
export function hijackedHead(reply: FastifyReply, own: Readonly<Record<string, string | undefined>>): OutgoingHttpHeaders {
  const set: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(own)) if (value !== undefined) set[name] = value;
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) set[name] = value;
  return set;
}

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const config = route.config ?? {};
    let policy = config.contentSecurityPolicy;
    // Swagger UI is a page; its routes come from @fastify/swagger-ui, which cannot be told.
    if (policy === undefined && (route.url === '/docs' || route.url.startsWith('/docs/'))) policy = docsContentSecurityPolicy;
    route.config = { ...config, securityHeaders: headersFor(policy) };
  });

  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(routeConfigOf(request).securityHeaders ?? baseSecurityHeaders);
    done();
  });
}
