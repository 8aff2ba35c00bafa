import { describe, expect, it } from 'vitest';
import { providerQueueLimits } from '../../../../src/generation/batch/batch-limits.js';

describe('providerQueueLimits', () => {
  it('gives every provider the defaults, with no rate limit when the rate is 0', () => {
    const limits = providerQueueLimits({ batchConcurrency: 4, batchRatePerMinute: 0 });
    expect(limits('openai')).toEqual({ concurrency: 4 });
    expect(limits('ollama')).toEqual({ concurrency: 4 });
  });

  it('applies per-provider overrides, falling back to the default rate when an entry gives none', () => {
    const limits = providerQueueLimits({ batchConcurrency: 2, batchRatePerMinute: 100, batchProviderLimits: 'openai=8/600, anthropic=1' });
    expect(limits('openai')).toEqual({ concurrency: 8, rateLimit: { max: 600, durationMs: 60_000 } });
    expect(limits('anthropic')).toEqual({ concurrency: 1, rateLimit: { max: 100, durationMs: 60_000 } });
    expect(limits('mistral')).toEqual({ concurrency: 2, rateLimit: { max: 100, durationMs: 60_000 } });
  });

  it.each([
    ['skynet=2', 'unknown provider "skynet"'],
    ['openai=2,openai=3', 'names "openai" twice'],
    ['openai=0', 'concurrency below 1'],
    ['openai', 'malformed entry "openai"'],
  ])('fails at start on %s, naming BATCH_PROVIDER_LIMITS', (value, message) => {
    expect(() => providerQueueLimits({ batchConcurrency: 1, batchRatePerMinute: 0, batchProviderLimits: value })).toThrow(
      expect.objectContaining({
        code: 'SY_CONFIG_INVALID',
        message: expect.stringMatching(new RegExp(`BATCH_PROVIDER_LIMITS.*${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)),
      }),
    );
  });
});
