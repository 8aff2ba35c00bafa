import { describe, expect, it } from 'vitest';
import { cacheDirectiveOf, canonicalJson, responseCacheKey } from '../../../../src/generation/gateway/response-cache-key.js';

const request = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], temperature: 0.2 };

describe('response cache key', () => {
  it('writes one canonical JSON whatever the key order, keeping array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null }, e: undefined })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 })).toBe(canonicalJson({ b: 1, a: { d: [2, 1], c: null } }));
  });

  it('ignores user, stream and stream_options, and splits on everything else', () => {
    const base = responseCacheKey('m1', request);
    expect(base.merchantId).toBe('m1');
    expect(base.requestHash).toMatch(/^[0-9a-f]{64}$/);
    expect(responseCacheKey('m1', { ...request, user: 'u1', stream: true, stream_options: { include_usage: true } })).toEqual(base);
    for (const change of [
      { temperature: 0.3 },
      { top_p: 0.9 },
      { seed: 7 },
      { stop: ['\n'] },
      { max_tokens: 10 },
      { tools: [] },
      { response_format: { type: 'json_object' } },
      { model: 'openai/gpt-4o' },
    ]) {
      expect(responseCacheKey('m1', { ...request, ...change }).requestHash, JSON.stringify(change)).not.toBe(base.requestHash);
    }
  });

  it('hashes the merchant in: two merchants never get the same hash', () => {
    expect(responseCacheKey('m2', request).requestHash).not.toBe(responseCacheKey('m1', request).requestHash);
  });

  it('reads no-cache and no-store from Cache-Control, no-store winning', () => {
    expect(cacheDirectiveOf(undefined)).toBe('use');
    expect(cacheDirectiveOf('max-age=0')).toBe('use');
    expect(cacheDirectiveOf('No-Cache')).toBe('no-cache');
    expect(cacheDirectiveOf('no-cache, no-store')).toBe('no-store');
    expect(cacheDirectiveOf(['private', 'no-store'])).toBe('no-store');
  });
});
