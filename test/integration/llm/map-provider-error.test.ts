import { APICallError } from '@ai-sdk/provider';
import { RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { mapProviderError, providerMessage, retryAfterSeconds } from '../../../src/adapters/llm/map-provider-error.js';
import { AIProviderError } from '../../../src/generation/errors/ai-provider-error.js';
import { AuthenticationError, InvalidRequestError, QuotaExceededError, RateLimitError, TimeoutError } from '../../../src/generation/errors/provider-errors.js';

function apiError(statusCode: number | undefined, body: string, headers: Record<string, string> = {}, cause?: unknown): APICallError {
  return new APICallError({
    message: 'Bad',
    url: 'https://api.example.test/v1/chat/completions',
    requestBodyValues: {},
    ...(statusCode === undefined ? {} : { statusCode }),
    responseHeaders: headers,
    responseBody: body,
    ...(cause === undefined ? {} : { cause }),
  });
}

describe('mapProviderError', () => {
  it('unwraps a RetryError to its last error', () => {
    const retry = new RetryError({
      message: 'failed after 3 attempts',
      reason: 'maxRetriesExceeded',
      errors: [apiError(500, '{}'), apiError(401, '{"error":{"message":"bad key"}}')],
    });
    const mapped = mapProviderError('openai', retry);
    expect(mapped).toBeInstanceOf(AuthenticationError);
    expect(mapped.message).toContain('bad key');
  });

  it('keeps an error that is already one of ours', () => {
    const own = new RateLimitError('slow down', 'openai', 3);
    expect(mapProviderError('openai', own)).toBe(own);
  });

  it('insufficient_quota wins over the 429 status and is not retryable', () => {
    const mapped = mapProviderError(
      'openai',
      apiError(
        429,
        JSON.stringify({ error: { message: 'You exceeded your current quota', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } }),
      ),
    );
    expect(mapped).toBeInstanceOf(QuotaExceededError);
    expect(mapped.isRetryable).toBe(false);
  });

  it('529 (overloaded) and other 5xx are retryable; 422 and 409 are not', () => {
    expect(mapProviderError('x', apiError(529, '{"message":"Overloaded"}')).isRetryable).toBe(true);
    expect(mapProviderError('x', apiError(502, '<html>Bad gateway</html>')).isRetryable).toBe(true);
    expect(mapProviderError('x', apiError(422, '{}'))).toBeInstanceOf(InvalidRequestError);
    expect(mapProviderError('x', apiError(409, '{}')).isRetryable).toBe(false);
  });

  it('a status-less API error caused by ECONNRESET is a retryable network error', () => {
    const cause = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    const mapped = mapProviderError('x', apiError(undefined, '', {}, cause));
    expect(mapped.isRetryable).toBe(true);
    expect(mapped.message).toContain('ECONNRESET');
  });

  it('a raw fetch failure (ECONNREFUSED) is a retryable network error', () => {
    const error = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
    });
    const mapped = mapProviderError('x', error);
    expect(mapped.isRetryable).toBe(true);
    expect(mapped.message).toContain('ECONNREFUSED');
  });

  it('TimeoutError from AbortSignal.timeout is a TimeoutError; a plain AbortError is the caller’s and not retryable', () => {
    expect(mapProviderError('x', new DOMException('timed out', 'TimeoutError'))).toBeInstanceOf(TimeoutError);
    const aborted = mapProviderError('x', new DOMException('aborted', 'AbortError'));
    expect(aborted).toBeInstanceOf(AIProviderError);
    expect(aborted).not.toBeInstanceOf(TimeoutError);
    expect(aborted.isRetryable).toBe(false);
  });
});

describe('retryAfterSeconds', () => {
  it('reads retry-after-ms before retry-after, seconds, and HTTP dates', () => {
    expect(retryAfterSeconds({ 'retry-after': '7' })).toBe(7);
    expect(retryAfterSeconds({ 'Retry-After-Ms': '1500', 'retry-after': '2' })).toBe(1.5);
    const now = Date.parse('2026-11-22T20:00:00Z');
    expect(retryAfterSeconds({ 'retry-after': 'Sun, 22 Nov 2026 20:00:30 GMT' }, now)).toBe(30);
    expect(retryAfterSeconds({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterSeconds(undefined)).toBeUndefined();
  });
});

describe('providerMessage', () => {
  it('finds the human message in each provider family’s error body', () => {
    expect(providerMessage('{"error":{"message":"Incorrect API key","type":"invalid_request_error"}}')).toBe('Incorrect API key');
    expect(providerMessage('{"error":"model \\"x\\" not found"}')).toBe('model "x" not found');
    expect(providerMessage('{"message":"Unauthorized","request_id":"r"}')).toBe('Unauthorized');
    expect(providerMessage('upstream connect error')).toBe('upstream connect error');
    expect(providerMessage('')).toBeUndefined();
  });
});
