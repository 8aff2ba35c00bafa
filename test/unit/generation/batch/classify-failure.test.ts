import { describe, expect, it } from 'vitest';
import { classifyFailure } from '../../../../src/generation/batch/classify-failure.js';
import { AIProviderError } from '../../../../src/generation/errors/ai-provider-error.js';
import {
  AuthenticationError,
  ConfigurationError,
  InvalidRequestError,
  QuotaExceededError,
  RateLimitError,
  TimeoutError,
} from '../../../../src/generation/errors/provider-errors.js';
import { SwitchyardError } from '../../../../src/errors/switchyard-error.js';

describe('classifyFailure', () => {
  it.each([
    [new RateLimitError('429', 'openai', 2), 'RateLimitError', true],
    [new AIProviderError('Internal Server Error', 'openai', { statusCode: 500 }), 'AIProviderError', true],
    [new AIProviderError('fetch failed', 'openai'), 'AIProviderError', true],
    [new TimeoutError('timed out', 'openai', 10, 'generate'), 'TimeoutError', true],
    [new QuotaExceededError('insufficient_quota', 'openai', { isRetryable: false }), 'QuotaExceededError', false],
    [new InvalidRequestError('bad', 'openai', 'temperature', { statusCode: 400 }), 'InvalidRequestError', false],
    [new AuthenticationError('401', 'openai', { statusCode: 401 }), 'AuthenticationError', false],
    [new ConfigurationError('set OPENAI_API_KEY', 'openai'), 'ConfigurationError', false],
  ])('reads the toolkit class and retryability of %s', (error, errorClass, retryable) => {
    expect(classifyFailure(error)).toMatchObject({ errorClass, retryable, message: error.message, code: error.code });
  });

  it('keeps the provider status code', () => {
    expect(classifyFailure(new AIProviderError('Bad Gateway', 'openai', { statusCode: 502 }))).toMatchObject({ statusCode: 502, retryable: true });
  });

  it('retries our own retryable errors (a store outage) and not the others', () => {
    expect(classifyFailure(new SwitchyardError('SY_STATE_UNAVAILABLE', { isRetryable: true }))).toMatchObject({
      errorClass: 'SwitchyardError',
      code: 'SY_STATE_UNAVAILABLE',
      retryable: true,
    });
    expect(classifyFailure(new SwitchyardError('SY_INTERNAL'))).toMatchObject({ retryable: false });
  });

  it('retries an unclassified failure (its attempts bound it)', () => {
    expect(classifyFailure(new TypeError('socket hang up'))).toEqual({ errorClass: 'TypeError', message: 'socket hang up', retryable: true });
    expect(classifyFailure('plain string')).toEqual({ errorClass: 'Error', message: 'plain string', retryable: true });
  });
});
