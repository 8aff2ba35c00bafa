import { describe, expect, it } from 'vitest';
import type { ProviderStatus, ProviderStatusOptions } from '../../../src/toolkit/provider-status.js';
import { ProviderStatusProbe } from '../../../src/toolkit/provider-status-probe.js';

/** A status source that counts rounds and records the options each round was asked with. */
function countingSource() {
  const asked: ProviderStatusOptions[] = [];
  return {
    asked,
    async getProviderStatus(options: ProviderStatusOptions): Promise<ProviderStatus[]> {
      asked.push(options);
      return [{ provider: 'openai', status: 'working', configured: true, authenticated: true, model: 'gpt-4o-mini', responseTime: asked.length }];
    },
  };
}

describe('ProviderStatusProbe', () => {
  it('probes with its bounds, keeps the round for the TTL and probes again once it has passed', async () => {
    let now = 1_000_000;
    const source = countingSource();
    const probe = new ProviderStatusProbe(source, { ttlMs: 30_000, concurrency: 2, timeoutMs: 1500, now: () => now });
    const first = await probe.status();
    expect(first).toMatchObject({ cached: false, checkedAt: 1_000_000, ttlMs: 30_000 });
    expect(source.asked).toEqual([{ probe: true, concurrency: 2, timeoutMs: 1500 }]);
    now += 29_999;
    expect(await probe.status()).toMatchObject({ cached: true, checkedAt: 1_000_000 });
    expect(source.asked).toHaveLength(1);
    now += 1;
    const third = await probe.status();
    expect(third).toMatchObject({ cached: false, checkedAt: 1_030_000 });
    expect(third.statuses[0]!.responseTime).toBe(2);
    expect(source.asked).toHaveLength(2);
  });

  it('lets callers that arrive during a round share it', async () => {
    const source = countingSource();
    const probe = new ProviderStatusProbe(source);
    const answers = await Promise.all([probe.status(), probe.status(), probe.status()]);
    expect(source.asked).toHaveLength(1);
    expect(answers.map((answer) => answer.cached)).toEqual([false, true, true]);
    expect(source.asked[0]).toEqual({ probe: true, concurrency: 4, timeoutMs: 5000 });
  });
});
