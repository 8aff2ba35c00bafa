import { describe, expect, it } from 'vitest';
import { rankCandidates, routeGroupProblems, toRouteGroup } from '../../../../src/generation/gateway/route-group.js';
import { applyRouteRules, estimatePromptTokens } from '../../../../src/generation/gateway/route-rules.js';
import { createSequenceRandom } from '../../../../src/decision/random-source.js';

const noExplore = () => createSequenceRandom([0.99]);
const contextWindows: Record<string, number> = { small: 8_000, large: 200_000 };
const contextOf = (_provider: string, model: string) => contextWindows[model];

const group = toRouteGroup('chat', {
  candidates: [
    { provider: 'openai', model: 'small' },
    { provider: 'anthropic', model: 'large' },
    { provider: 'mistral', model: 'eu-model' },
  ],
  rules: [
    { name: 'long prompts', promptTokensAtLeast: 4000, minContextWindow: 100_000 },
    { name: 'data stays in the EU', onlyProviders: ['mistral', 'anthropic'] },
  ],
  explorePercent: 0,
});

describe('route rules', () => {
  it('narrows the candidates by each rule whose condition holds, in order', () => {
    expect(applyRouteRules(group, { promptTokens: 10 }, contextOf)).toEqual({
      kind: 'ok',
      candidates: [group.candidates[1], group.candidates[2]],
      applied: ['data stays in the EU'],
    });
    expect(applyRouteRules(group, { promptTokens: estimatePromptTokens('x'.repeat(20_000)) }, contextOf)).toEqual({
      kind: 'ok',
      candidates: [group.candidates[1]],
      applied: ['long prompts', 'data stays in the EU'],
    });
  });

  it('refuses a request no candidate may serve, naming the rule, instead of sending it elsewhere', () => {
    const strict = toRouteGroup('strict', { candidates: [{ provider: 'openai', model: 'small' }], rules: [{ name: 'EU only', onlyProviders: ['mistral'] }] });
    expect(applyRouteRules(strict, { promptTokens: 1 }, contextOf)).toEqual({ kind: 'refused', rule: 'EU only' });
    // A model the registry does not know does not meet a context rule.
    const unknown = toRouteGroup('unknown', { candidates: [{ provider: 'mistral', model: 'eu-model' }], rules: [{ name: 'big', minContextWindow: 1 }] });
    expect(applyRouteRules(unknown, { promptTokens: 1 }, contextOf)).toEqual({ kind: 'refused', rule: 'big' });
  });

  it('checks rules on write: provider kinds, a restriction each, unique names', () => {
    expect(
      routeGroupProblems(
        {
          candidates: [{ provider: 'openai', model: 'small' }],
          rules: [{ name: 'a', onlyProviders: ['nowhere'] }, { name: 'a', minContextWindow: 5 }, { name: 'empty' }],
        },
        () => undefined,
      ),
    ).toEqual([
      'rules[0].onlyProviders[0] names no provider kind: "nowhere"',
      'rules[1].name repeats "a"',
      'rules[2] ("empty") restricts nothing: give onlyProviders or minContextWindow',
    ]);
  });
});

describe('multi-objective ranking', () => {
  const pair = (objectives: { latencyWeight?: number; costWeight?: number }) =>
    toRouteGroup('pair', {
      candidates: [
        { provider: 'openai', model: 'dear' },
        { provider: 'mistral', model: 'cheap' },
      ],
      explorePercent: 0,
      objectives,
    });

  it('ranks by success rate alone by default, and by cost once it has a weight', () => {
    const windows = [
      { successes: 20, length: 20 },
      { successes: 19, length: 20 },
    ];
    const prices = [0.01, 0.001];
    expect(rankCandidates(pair({}), windows, noExplore(), { prices }).candidates.map((c) => c.model)).toEqual(['dear', 'cheap']);
    expect(rankCandidates(pair({ costWeight: 0.2 }), windows, noExplore(), { prices }).candidates.map((c) => c.model)).toEqual(['cheap', 'dear']);
  });

  it('demotes a slow candidate by its learned speed window when latency has a weight', () => {
    const windows = [undefined, undefined];
    const latencyWindows = [
      { successes: 2, length: 20 },
      { successes: 20, length: 20 },
    ];
    expect(rankCandidates(pair({ latencyWeight: 0.5 }), windows, noExplore(), { latencyWindows }).candidates.map((c) => c.model)).toEqual(['cheap', 'dear']);
    // Success still comes first when the gap in success is larger than the weighted penalty.
    const failing = [
      { successes: 20, length: 20 },
      { successes: 12, length: 20 },
    ];
    expect(rankCandidates(pair({ latencyWeight: 0.1 }), failing, noExplore(), { latencyWindows }).candidates.map((c) => c.model)).toEqual(['dear', 'cheap']);
  });
});
