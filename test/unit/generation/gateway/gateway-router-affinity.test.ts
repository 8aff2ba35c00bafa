import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStateStore } from '../../../../src/adapters/memory/memory-state-store.js';
import { createSequenceRandom } from '../../../../src/decision/random-source.js';
import { cacheAffinityOf } from '../../../../src/generation/gateway/cache-affinity-key.js';
import { GatewayRouter, type GatewayModelRegistry } from '../../../../src/generation/gateway/gateway-router.js';
import { toRouteGroup } from '../../../../src/generation/gateway/route-group.js';
import type { ModelConfig, ModelPricing } from '../../../../src/generation/models/model-config.js';
import { silentLogger } from '../../../../src/logging/logger.js';
import type { StateStore } from '../../../../src/ports/state-store.js';

let state: StateStore | undefined;
afterEach(async () => {
  await state?.close();
  state = undefined;
});

/** A registry that prices two models (USD per 1K) and knows nothing else of them. */
function registryPricing(prices: Record<string, ModelPricing>): GatewayModelRegistry {
  return {
    getModelConfig: (model: string) =>
      prices[model] === undefined ? undefined : ({ pricing: prices[model], capabilities: [], contextWindow: undefined } as unknown as ModelConfig),
    getEmbeddingPricing: () => undefined,
    maxOutputTokensOf: () => undefined,
  };
}

const system = [{ type: 'text', text: 'Follow the repository conventions. '.repeat(400), cache_control: { type: 'ephemeral' } }];
const turn = (n: number) => ({
  system,
  messages: Array.from({ length: n }, (_, i) => [
    { role: 'user', content: `step ${i}` },
    { role: 'assistant', content: 'ok' },
  ])
    .flat()
    .concat([{ role: 'user', content: `step ${n}` }]),
});

async function routerWith(prices: Record<string, ModelPricing>, body: Record<string, unknown>) {
  state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger });
  const group = toRouteGroup('agents', {
    candidates: [
      { provider: 'anthropic', model: 'dear' },
      { provider: 'openai', model: 'cheap' },
    ],
    explorePercent: 0,
    ...body,
  });
  await state.configs.put('m1', 'llmRouteGroups', [group], 'upsert');
  const router = new GatewayRouter({
    configs: state.configs,
    scores: state.scores,
    models: registryPricing(prices),
    random: createSequenceRandom(Array(10).fill(0.99)),
    affinity: state.cacheAffinity,
  });
  return { router, store: state.cacheAffinity };
}

const routeOfTurn = (router: GatewayRouter, n: number) => router.routeOf('m1', 'agents', turn(n).messages, { affinity: cacheAffinityOf('messages', turn(n)) });
const firstOf = (route: Awaited<ReturnType<GatewayRouter['routeOf']>>) =>
  route.kind === 'group' ? { first: route.ranking.candidates[0]?.model, approach: route.ranking.approach, affinity: route.ranking.affinity } : undefined;

describe('GatewayRouter cache affinity', () => {
  it('remembers who answered a conversation and routes its next turn there', async () => {
    const { router, store } = await routerWith({}, {});
    const first = await routeOfTurn(router, 0);
    expect(firstOf(first)).toEqual({ first: 'dear', approach: 'sr', affinity: 'new' });
    // The dated id an Anthropic answer names still matches its candidate.
    await router.rememberServed(first, 'openai', 'cheap-2025-01-01', 1);
    const key = first.kind === 'group' ? first.affinity?.storeKey : undefined;
    expect(key).toMatchObject({ merchantId: 'm1', routeGroup: 'agents' });
    expect(await store.get(key!)).toEqual({ candidate: 'openai/cheap', cachedTokens: expect.any(Number) });
    expect(firstOf(await routeOfTurn(router, 3))).toEqual({ first: 'cheap', approach: 'affinity', affinity: 'kept' });
    // A bare client key routes and remembers the same way, in its own entry.
    const keyed = await router.routeOf('m1', 'agents', turn(3), { affinityKey: 'session-9' });
    expect(firstOf(keyed)).toEqual({ first: 'dear', approach: 'sr', affinity: 'new' });
    await router.rememberServed(keyed, 'openai', 'cheap', 1);
    expect(firstOf(await router.routeOf('m1', 'agents', turn(4), { affinityKey: 'session-9' }))).toEqual({
      first: 'cheap',
      approach: 'affinity',
      affinity: 'kept',
    });
    // Too short a prompt for any provider to cache: no affinity.
    expect(firstOf(await router.routeOf('m1', 'agents', 'hi', { affinityKey: 'session-9' }))).toEqual({ first: 'dear', approach: 'sr' });
    // No affinity asked: the ranking says nothing of it.
    expect(firstOf(await router.routeOf('m1', 'agents', turn(3).messages))).toEqual({ first: 'dear', approach: 'sr', affinity: undefined });
  });

  it('works the affinity out only for a group that keeps it', async () => {
    const { router } = await routerWith({}, { cacheAffinity: false });
    let workedOut = 0;
    const affinity = () => {
      workedOut += 1;
      return cacheAffinityOf('messages', turn(1));
    };
    expect(firstOf(await router.routeOf('m1', 'agents', turn(1), { affinity }))).toMatchObject({ affinity: 'off' });
    expect(await router.routeOf('m1', 'openai/gpt-4o-mini', turn(1), { affinity }).catch(() => 'not routed')).toBeDefined();
    expect(workedOut).toBe(0);
  });

  it('neither reads nor writes a holder for a group that turned affinity off', async () => {
    const { router, store } = await routerWith({}, { cacheAffinity: false });
    const route = await routeOfTurn(router, 0);
    expect(firstOf(route)).toEqual({ first: 'dear', approach: 'sr', affinity: 'off' });
    await router.rememberServed(route, 'openai', 'cheap', 1);
    const key = { merchantId: 'm1', routeGroup: 'agents', key: cacheAffinityOf('messages', turn(0))!.key };
    expect(await store.get(key)).toBeUndefined();
  });

  it('prices a warm holder at its cache-read price where the group weighs cost: kept while that makes it cheapest, left when not', async () => {
    // Input-heavy prices: warm (a 0.1× read for most of the prompt), dear costs less than cheap cold.
    const inputHeavy = { dear: { input: 0.01, output: 0.001 }, cheap: { input: 0.004, output: 0.001 } };
    const kept = await routerWith(inputHeavy, { objectives: { costWeight: 1 } });
    const first = await routeOfTurn(kept.router, 0);
    expect(firstOf(first)).toEqual({ first: 'cheap', approach: 'sr', affinity: 'new' });
    await kept.router.rememberServed(first, 'anthropic', 'dear', 1);
    expect(firstOf(await routeOfTurn(kept.router, 2))).toEqual({ first: 'dear', approach: 'affinity', affinity: 'kept' });
    await state?.close();
    // Output-heavy prices: the cache discount on input cannot make up for dear's output price.
    const outputHeavy = { dear: { input: 0.003, output: 0.075 }, cheap: { input: 0.003, output: 0.015 } };
    const left = await routerWith(outputHeavy, { objectives: { costWeight: 1 } });
    const start = await routeOfTurn(left.router, 0);
    await left.router.rememberServed(start, 'anthropic', 'dear', 1);
    expect(firstOf(await routeOfTurn(left.router, 2))).toEqual({ first: 'cheap', approach: 'sr', affinity: 'left_costlier' });
  });
});
