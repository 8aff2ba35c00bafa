/**
 * A refused or failed API call. `message` is what the API said, whatever its envelope: the
 * generic `{code, message}`, the decider's `{error_message}`, the generation `{error}`, OpenAI's
 * `{error: {message}}`, or decision-engine's plain-text 401s.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

function field(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The human message and code of an error body (JSON or text) of any of the API's envelopes. */
export function describeErrorBody(status: number, text: string): ApiError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new ApiError(status, text.trim() === '' ? `HTTP ${status}` : text.trim(), undefined);
  }
  if (typeof body === 'string') return new ApiError(status, body, undefined);
  if (typeof body !== 'object' || body === null) return new ApiError(status, `HTTP ${status}`, undefined);
  const record = body as Record<string, unknown>;
  const nested = typeof record['error'] === 'object' && record['error'] !== null ? (record['error'] as Record<string, unknown>) : undefined;
  const message =
    field(record, 'message') ??
    field(record, 'error_message') ??
    field(record, 'error') ??
    (nested !== undefined ? field(nested, 'message') : undefined) ??
    `HTTP ${status}`;
  const errorInfo = typeof record['error_info'] === 'object' && record['error_info'] !== null ? (record['error_info'] as Record<string, unknown>) : undefined;
  const code = field(record, 'code') ?? (errorInfo !== undefined ? field(errorInfo, 'code') : undefined) ?? field(record, 'error_code');
  return new ApiError(status, message, code);
}
