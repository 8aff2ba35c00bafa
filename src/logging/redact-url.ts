/** Query parameters whose values are secrets (one-time tokens, SSO codes): never logged. */
const secretQuery = /([?&](?:token|code|password|api_key)=)[^&#]*/gi;

/**
 * A request URL fit for a log line: the values of secret query parameters replaced by
 * `[redacted]` (e.g. `GET /auth/verify-email?token=…`, whose token is a one-time credential).
 */
export function redactUrl(url: string): string {
  return url.replace(secretQuery, '$1[redacted]');
}

/** The fields of a request the request log shows (fastify's own, with the URL redacted). */
export interface LoggableRequest {
  readonly method?: string;
  readonly url?: string;
  readonly host?: string;
  readonly ip?: string;
  readonly socket?: { readonly remotePort?: number } | null;
}

/** pino `req` serializer: fastify's fields, the URL through `redactUrl`. */
export function serializeRequest(req: LoggableRequest): Record<string, unknown> {
  return { method: req.method, url: redactUrl(req.url ?? ''), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}
