import { describe, expect, it } from 'vitest';
import { AIProviderError } from '../../../src/generation/errors/ai-provider-error.js';
import { AuthenticationError, InvalidRequestError, RateLimitError, TimeoutError } from '../../../src/generation/errors/provider-errors.js';
import { isRetryableError, runFallbackChain } from '../../../src/generation/fallback-chain.js';

describe('runFallbackChain', () => {
  it('moves on for 429, 5xx and timeouts and reports the attempts', async () => {
    const tried: string[] = [];
    const failures: Record<string, unknown> = {
      openai: new RateLimitError('rate limited', 'openai', 3),
      anthropic: new AIProviderError('overloaded', 'anthropic', { statusCode: 503 }),
      'google-ai': new TimeoutError('slow', 'google-ai', 100, 'generate'),
    };
    const outcome = await runFallbackChain(
      [{ provider: 'openai' }, { provider: 'anthropic' }, { provider: 'google-ai' }, { provider: 'mistral' }],
      async (link) => {
        tried.push(link.provider);
        if (failures[link.provider] !== undefined) throw failures[link.provider];
        return 'ok';
      },
    );
    expect(tried).toEqual(['openai', 'anthropic', 'google-ai', 'mistral']);
    expect(outcome.value).toBe('ok');
    expect(outcome.link.provider).toBe('mistral');
    expect(outcome.attempts.map((attempt) => [attempt.provider, attempt.errorCode])).toEqual([
      ['openai', 'RATE_LIMITED'],
      ['anthropic', 'PROVIDER_ERROR'],
      ['google-ai', 'TIMEOUT'],
    ]);
  });

  it.each([
    ['a 400', new InvalidRequestError('bad temperature', 'openai', 'temperature', { statusCode: 400 })],
    ['an auth failure', new AuthenticationError('bad key', 'openai', { statusCode: 401 })],
    ['a plain 404', new AIProviderError('no such model', 'openai', { statusCode: 404 })],
    ['a non-toolkit error (caller abort)', new DOMException('aborted', 'AbortError')],
  ])('stops at %s', async (_name, failure) => {
    const tried: string[] = [];
    await expect(
      runFallbackChain([{ provider: 'openai' }, { provider: 'anthropic' }], async (link) => {
        tried.push(link.provider);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(tried).toEqual(['openai']);
  });

  it('names every provider when all fail retryably', async () => {
    const chain = runFallbackChain([{ provider: 'openai' }, { provider: 'anthropic' }], async (link) => {
      throw new AIProviderError(`${link.provider} down`, link.provider, { statusCode: 502 });
    });
    await expect(chain).rejects.toThrow('All 2 providers failed. openai: openai down; anthropic: anthropic down');
  });

  it("rethrows the only link's own error", async () => {
    const failure = new TimeoutError('slow', 'openai', 5, 'generate');
    await expect(runFallbackChain([{ provider: 'openai' }], async () => Promise.reject(failure))).rejects.toBe(failure);
  });

  it('classifies errors by isRetryable only', () => {
    expect(isRetryableError(new AIProviderError('x', 'p', { statusCode: 500 }))).toBe(true);
    expect(isRetryableError(new AIProviderError('x', 'p', { statusCode: 422 }))).toBe(false);
    expect(isRetryableError(new Error('network'))).toBe(false);
  });
});
