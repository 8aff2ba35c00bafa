import { ApiError, describeErrorBody } from './api-error';

export type Query = Readonly<Record<string, string | number | boolean | null | undefined>>;

export interface RequestOptions {
  readonly body?: unknown;
  readonly query?: Query;
  readonly signal?: AbortSignal;
  /**
   * The route checks a password and answers a wrong one with a coded 401 (change-password): such a
   * 401 is the form's error and keeps the session; an uncoded one (expired token) still ends it.
   */
  readonly checksCredentials?: boolean;
}

/**
 * The one way the dashboard talks to the service: same origin, JSON, the session token as
 * `Authorization: Bearer`. A 401 on a credentialed call ends the session (`onUnauthorized`).
 */
export interface HttpClient {
  request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options?: RequestOptions): Promise<T>;
  /** A raw streamed POST (server-sent events): the response, its body unread; errors before the stream starts are thrown as ApiError. */
  stream(path: string, body: unknown, signal: AbortSignal): Promise<{ readonly body: ReadableStream<Uint8Array>; readonly headers: Headers }>;
}

export interface HttpClientOptions {
  readonly token: () => string | undefined;
  readonly onUnauthorized: () => void;
  readonly fetch?: typeof fetch;
}

function urlOf(path: string, query: Query | undefined): string {
  if (query === undefined) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));

  async function send(method: string, path: string, request: RequestOptions, accept: string): Promise<Response> {
    const token = options.token();
    const headers: Record<string, string> = { accept };
    if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await doFetch(urlOf(path, request.query), {
        method,
        headers,
        ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
        ...(request.signal !== undefined ? { signal: request.signal } : {}),
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(0, 'The service cannot be reached', undefined);
    }
    if (!response.ok) {
      const failure = describeErrorBody(response.status, await response.text());
      const refusedCredentials = request.checksCredentials === true && failure.code !== undefined;
      if (response.status === 401 && token !== undefined && !refusedCredentials) options.onUnauthorized();
      throw failure;
    }
    return response;
  }

  return {
    async request<T>(method: string, path: string, request: RequestOptions = {}): Promise<T> {
      const response = await send(method, path, request, 'application/json');
      const text = await response.text();
      // Activate/deactivate answer 200 with no body.
      return (text === '' ? undefined : JSON.parse(text)) as T;
    },
    async stream(path, body, signal) {
      const response = await send('POST', path, { body, signal }, 'text/event-stream');
      if (response.body === null) throw new ApiError(response.status, 'The stream has no body', undefined);
      return { body: response.body, headers: response.headers };
    },
  };
}
