import { describe, expect, it } from 'vitest';
import { rankCandidates, routeAttribution, routeGroupProblems, toRouteGroup } from '../../../../src/generation/gateway/route-group.js';
import { createSequenceRandom } from '../../../../src/decision/random-source.js';

const group = toRouteGroup('chat', {
  candidates: [
    { provider: 'openai', model: 'a', weight: 1 },
    { provider: 'anthropic', model: 'b', weight: 3 },
    { provider: 'mistral', model: 'c' },
  ],
  explorePercent: 10,
  maxHops: 2,
});
const noExplore = () => createSequenceRandom([0.99]);

describe('route groups', () => {
  it('fills defaults and normalises provider aliases', () => {
    expect(toRouteGroup('g', { candidates: [{ provider: 'claude', model: 'x' }] })).toEqual({
      name: 'g',
      candidates: [{ provider: 'anthropic', model: 'x', weight: 1 }],
      bucketSize: 20,
      eliminationThreshold: 0.5,
      explorePercent: 5,
      maxHops: 3,
    });
  });

  it('names every problem the schema cannot see', () => {
    const facts = (_provider: string, model: string) =>
      model === 'cheap-text'
        ? { capabilities: ['general'], averagePrice: 0.0001 }
        : model === 'pricey-vision'
          ? { capabilities: ['vision'], averagePrice: 0.05 }
          : undefined;
    expect(
      routeGroupProblems(
        {
          candidates: [
            { provider: 'nobody', model: 'm' },
            { provider: 'openai', model: 'cheap-text' },
            { provider: 'openai', model: 'cheap-text' },
            { provider: 'openai', model: 'pricey-vision' },
            { provider: 'openai', model: 'unknown-to-registry' },
          ],
          capability: 'vision',
          maxPrice: 0.01,
        },
        facts,
      ),
    ).toEqual([
      'candidates[0].provider names no provider kind: "nobody"',
      'candidates[1] (openai/cheap-text) lacks the capability "vision"',
      'candidates[2] repeats openai/cheap-text',
      'candidates[2] (openai/cheap-text) lacks the capability "vision"',
      'candidates[3] (openai/pricey-vision) costs 0.05 per 1K tokens, above maxPrice 0.01',
    ]);
  });

  it('ranks unseen candidates by weight, then order, cut to maxHops', () => {
    const ranking = rankCandidates(group, [undefined, undefined, undefined], noExplore());
    expect(ranking.approach).toBe('sr');
    expect(ranking.candidates.map((candidate) => candidate.model)).toEqual(['b', 'a']);
  });

  it('ranks by learned success rate and demotes a candidate below the threshold', () => {
    const ranking = rankCandidates(
      group,
      [
        { successes: 9, length: 10 },
        { successes: 3, length: 10 },
        { successes: 8, length: 10 },
      ],
      noExplore(),
    );
    expect(ranking.approach).toBe('sr_downtime');
    expect(ranking.candidates).toEqual([
      { provider: 'openai', model: 'a', score: 0.9, eliminated: false },
      { provider: 'mistral', model: 'c', score: 0.8, eliminated: false },
    ]);
    // Cut by maxHops, the demoted candidate is still named: the analytics count its elimination.
    expect(ranking.eliminated).toEqual(['anthropic/b']);
    expect(routeAttribution(group, ranking)).toEqual({ routeGroup: 'chat', routeApproach: 'sr_downtime', eliminatedCandidates: ['anthropic/b'] });
    expect(rankCandidates(group, [undefined, undefined, undefined], noExplore()).eliminated).toEqual([]);
  });

  it('explores: one draw below explorePercent puts the top candidate last, so the others are tried and can come back', () => {
    const random = createSequenceRandom([0.05]);
    const ranking = rankCandidates(
      group,
      [
        { successes: 10, length: 10 },
        { successes: 1, length: 10 },
        { successes: 10, length: 10 },
      ],
      random,
    );
    expect(ranking.approach).toBe('explore');
    expect(ranking.candidates[0]?.model).not.toBe('a');
    expect(ranking.candidates.map((candidate) => candidate.model)).toEqual(['b', 'c']);
    expect(random.drawn()).toBe(1);
  });
});
