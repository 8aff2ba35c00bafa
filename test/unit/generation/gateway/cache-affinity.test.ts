import { describe, expect, it } from 'vitest';
import { createSequenceRandom } from '../../../../src/decision/random-source.js';
import {
  affinityVerdict,
  cacheReadPriceOf,
  isFailing,
  servedCandidate,
  warmAveragePrice,
  warmShare,
} from '../../../../src/generation/gateway/cache-affinity.js';
import { rankCandidates, toRouteGroup } from '../../../../src/generation/gateway/route-group.js';

const candidates = ['anthropic/claude', 'openai/gpt'];
const healthy = { eliminated: [false, false], recent: [undefined, undefined] };

describe('affinityVerdict', () => {
  it('follows a healthy holder, and says why it does not otherwise', () => {
    expect(affinityVerdict({ holder: { candidate: 'openai/gpt', cachedTokens: 2000 }, candidates, ...healthy })).toEqual({ follow: true, index: 1 });
    expect(affinityVerdict({ holder: undefined, candidates, ...healthy })).toEqual({ follow: false, outcome: 'new' });
    expect(affinityVerdict({ holder: { candidate: 'mistral/large', cachedTokens: 2000 }, candidates, ...healthy })).toEqual({
      follow: false,
      outcome: 'left_not_candidate',
    });
    expect(
      affinityVerdict({ holder: { candidate: 'openai/gpt', cachedTokens: 2000 }, candidates, eliminated: [false, true], recent: [undefined, undefined] }),
    ).toEqual({ follow: false, outcome: 'left_eliminated' });
    expect(
      affinityVerdict({
        holder: { candidate: 'openai/gpt', cachedTokens: 2000 },
        candidates,
        eliminated: [false, false],
        recent: [undefined, { successes: 1, length: 3 }],
      }),
    ).toEqual({ follow: false, outcome: 'left_failing' });
  });

  it('counts a candidate failing when more than half of its newest outcomes failed', () => {
    expect(isFailing(undefined)).toBe(false);
    expect(isFailing({ successes: 0, length: 0 })).toBe(false);
    expect(isFailing({ successes: 0, length: 1 })).toBe(true);
    expect(isFailing({ successes: 1, length: 2 })).toBe(false);
    expect(isFailing({ successes: 1, length: 3 })).toBe(true);
    expect(isFailing({ successes: 2, length: 3 })).toBe(false);
  });
});

describe('warm cache pricing', () => {
  const pricing = { input: 0.003, output: 0.015 };

  it('prices the cached share at the cache-read price (the registry’s, else a tenth of input)', () => {
    expect(cacheReadPriceOf(pricing)).toBeCloseTo(0.0003, 10);
    expect(cacheReadPriceOf({ ...pricing, cacheRead: 0.0005 })).toBe(0.0005);
    expect(warmAveragePrice(pricing, 0)).toBeCloseTo(0.009, 10);
    expect(warmAveragePrice(pricing, 1)).toBeCloseTo((0.0003 + 0.015) / 2, 10);
    expect(warmAveragePrice(pricing, 0.5)).toBeCloseTo((0.0015 + 0.00015 + 0.015) / 2, 10);
  });

  it('counts no warm share below the minimum a provider caches, and at most the whole prompt', () => {
    expect(warmShare(undefined, 5000)).toBe(0);
    expect(warmShare({ candidate: 'x/y', cachedTokens: 1000 }, 5000)).toBe(0);
    expect(warmShare({ candidate: 'x/y', cachedTokens: 4000 }, 5000)).toBe(0.8);
    expect(warmShare({ candidate: 'x/y', cachedTokens: 6000 }, 5000)).toBe(1);
  });
});

describe('servedCandidate', () => {
  const ranked = [
    { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    { provider: 'openai', model: 'gpt-5' },
  ];

  it('matches the answer by provider and model, else the candidate tried at its hop, else the only one of its provider', () => {
    expect(servedCandidate(ranked, 'openai', 'gpt-5', 0)).toBe(ranked[1]);
    expect(servedCandidate(ranked, 'anthropic', 'claude-sonnet-4-5-20250929', 0)).toBe(ranked[0]);
    expect(servedCandidate(ranked, 'openai', 'gpt-5-2025-08-07', 0)).toBe(ranked[1]);
    expect(servedCandidate([...ranked, { provider: 'openai', model: 'gpt-4o' }], 'openai', 'gpt-5-dated', 0)).toBeUndefined();
  });
});

describe('rankCandidates with cache affinity', () => {
  const group = toRouteGroup('agents', {
    candidates: [
      { provider: 'anthropic', model: 'claude', weight: 2 },
      { provider: 'openai', model: 'gpt' },
    ],
    explorePercent: 50,
    maxHops: 2,
  });
  const fresh = [undefined, undefined];
  const order = (ranking: ReturnType<typeof rankCandidates>) => ranking.candidates.map((candidate) => candidate.model);

  it('puts a healthy holder first, even over an exploration draw, and says so', () => {
    const holder = { candidate: 'openai/gpt', cachedTokens: 3000 };
    for (const draw of [0.99, 0.1]) {
      const ranking = rankCandidates(group, fresh, createSequenceRandom([draw]), { affinity: { holder, recent: fresh } });
      expect(order(ranking)).toEqual(['gpt', 'claude']);
      expect(ranking).toMatchObject({ approach: 'affinity', affinity: 'kept' });
    }
  });

  it('ranks as usual when the holder is eliminated or failing, for a new conversation, and when the group turned affinity off', () => {
    const holder = { candidate: 'openai/gpt', cachedTokens: 3000 };
    const eliminated = rankCandidates(group, [undefined, { successes: 1, length: 10 }], createSequenceRandom([0.99]), { affinity: { holder, recent: fresh } });
    expect(order(eliminated)).toEqual(['claude', 'gpt']);
    expect(eliminated).toMatchObject({ approach: 'sr_downtime', affinity: 'left_eliminated' });
    const failing = rankCandidates(group, [undefined, { successes: 7, length: 10 }], createSequenceRandom([0.99]), {
      affinity: { holder, recent: [undefined, { successes: 0, length: 3 }] },
    });
    expect(order(failing)).toEqual(['claude', 'gpt']);
    expect(failing).toMatchObject({ approach: 'sr', affinity: 'left_failing' });
    expect(rankCandidates(group, fresh, createSequenceRandom([0.99]), { affinity: { holder: undefined, recent: fresh } })).toMatchObject({
      approach: 'sr',
      affinity: 'new',
    });
    const off = rankCandidates(group, fresh, createSequenceRandom([0.1]), { affinity: 'off' });
    expect(off).toMatchObject({ approach: 'explore', affinity: 'off' });
    expect(order(off)).toEqual(['gpt', 'claude']);
    expect(rankCandidates(group, fresh, createSequenceRandom([0.99])).affinity).toBeUndefined();
  });

  it('keeps the holder in a ranking cut to maxHops', () => {
    const three = toRouteGroup('agents', {
      candidates: [
        { provider: 'anthropic', model: 'a', weight: 3 },
        { provider: 'anthropic', model: 'b', weight: 2 },
        { provider: 'openai', model: 'c' },
      ],
      explorePercent: 0,
      maxHops: 1,
    });
    const ranking = rankCandidates(three, [undefined, undefined, undefined], createSequenceRandom([0.99]), {
      affinity: { holder: { candidate: 'openai/c', cachedTokens: 2048 }, recent: [undefined, undefined, undefined] },
    });
    expect(order(ranking)).toEqual(['c']);
  });
});

describe('rankCandidates with cache affinity in a group that weighs cost', () => {
  const group = toRouteGroup('agents', {
    candidates: [
      { provider: 'anthropic', model: 'dear', weight: 1 },
      { provider: 'openai', model: 'cheap', weight: 1 },
    ],
    explorePercent: 0,
    objectives: { costWeight: 1 },
  });
  const fresh = [undefined, undefined];
  const holder = { candidate: 'anthropic/dear', cachedTokens: 9000 };
  const dear = { input: 0.003, output: 0.015 };
  const cheap = { input: 0.0015, output: 0.006 };

  it('keeps a warm holder first while its cache-read price makes it the cheaper one', () => {
    // Cold, dear costs 0.009 a 1K tokens on average against cheap's 0.00375; warm (90 % read) it costs 0.00764.
    const prices = [warmAveragePrice(dear, 0.9), warmAveragePrice(cheap, 0)];
    const ranking = rankCandidates(group, fresh, createSequenceRandom([0.99]), { prices, affinity: { holder, recent: fresh } });
    expect(ranking).toMatchObject({ approach: 'sr', affinity: 'left_costlier' });
    expect(ranking.candidates.map((candidate) => candidate.model)).toEqual(['cheap', 'dear']);
    // An output-light model pair: warm, dear costs less than cheap cold.
    const light = [warmAveragePrice({ input: 0.01, output: 0.001 }, 0.95), warmAveragePrice({ input: 0.004, output: 0.001 }, 0)];
    const kept = rankCandidates(group, fresh, createSequenceRandom([0.99]), { prices: light, affinity: { holder, recent: fresh } });
    expect(kept).toMatchObject({ approach: 'affinity', affinity: 'kept' });
    expect(kept.candidates.map((candidate) => candidate.model)).toEqual(['dear', 'cheap']);
  });
});
