import { describe, expect, it } from 'vitest';
import { computeAnalytics, computeCost } from '../../../../src/generation/analytics/compute-analytics.js';
import { providerDefaultPricing, resolvePricing } from '../../../../src/generation/analytics/model-pricing.js';

describe('analytics cost', () => {
  it('prices the worked example: google-ai, 15 in + 150 out = 0.000046125 → 0.00005', () => {
    const pricing = providerDefaultPricing('google-ai');
    expect(pricing).toEqual({ input: 0.000075, output: 0.0003 });
    expect(computeCost({ input: 15, output: 150 }, pricing!)).toBe(0.00005);
  });

  it('prefers the registry price of the model over the provider default', () => {
    const lookup = (id: string) => (id === 'gpt-4o' ? { input: 0.005, output: 0.015 } : undefined);
    expect(resolvePricing('openai', 'gpt-4o', lookup)).toEqual({ input: 0.005, output: 0.015 });
    expect(resolvePricing('openai', 'gpt-unknown', lookup)).toEqual({ input: 0.00015, output: 0.0006 });
    expect(computeCost({ input: 1000, output: 2000 }, { input: 0.005, output: 0.015 })).toBe(0.035);
  });

  it('leaves the cost unknown for providers fronting arbitrary models', () => {
    expect(resolvePricing('litellm', 'whatever', undefined)).toBeUndefined();
    const analytics = computeAnalytics({
      provider: 'litellm',
      model: 'm',
      usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
      responseTime: 5,
      pricing: undefined,
      now: new Date(0),
    });
    expect(analytics).not.toHaveProperty('cost');
  });

  it('lets <PROVIDER>_DEFAULT_*_COST override the default', () => {
    expect(providerDefaultPricing('google-ai', { GOOGLE_AI_DEFAULT_INPUT_COST: '0.001', GOOGLE_AI_DEFAULT_OUTPUT_COST: 'junk' })).toEqual({
      input: 0.001,
      output: 0.0003,
    });
    expect(providerDefaultPricing('sagemaker', { SAGEMAKER_DEFAULT_INPUT_COST: '0.1', SAGEMAKER_DEFAULT_OUTPUT_COST: '0.2' })).toEqual({
      input: 0.1,
      output: 0.2,
    });
  });

  it('builds the documented analytics shape with context echoed', () => {
    const analytics = computeAnalytics({
      provider: 'google-ai',
      model: 'gemini-2.5-flash',
      usage: { inputTokens: 15, outputTokens: 150, totalTokens: 165 },
      responseTime: 1200,
      pricing: providerDefaultPricing('google-ai'),
      context: { userId: 'u1' },
      now: new Date('2026-01-01T00:00:00Z'),
    });
    expect(analytics).toEqual({
      provider: 'google-ai',
      model: 'gemini-2.5-flash',
      tokens: { input: 15, output: 150, total: 165 },
      cost: 0.00005,
      responseTime: 1200,
      context: { userId: 'u1' },
      timestamp: '2026-01-01T00:00:00.000Z',
    });
  });
});
