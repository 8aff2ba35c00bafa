import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStateStore } from '../../../../src/adapters/memory/memory-state-store.js';
import { SwitchyardError } from '../../../../src/errors/switchyard-error.js';
import type { GatewayCaller } from '../../../../src/generation/gateway/gateway-caller.js';
import { ResponseCachePolicy } from '../../../../src/generation/gateway/response-cache-policy.js';
import { RouteGroupService } from '../../../../src/generation/gateway/route-group-service.js';
import { silentLogger } from '../../../../src/logging/logger.js';
import type { CachedCompletion, StateStore } from '../../../../src/ports/state-store.js';

// The registry knows no model here: candidates are checked by provider name only.
const noModels = { getModelConfig: () => undefined, getEmbeddingPricing: () => undefined, maxOutputTokensOf: () => undefined };

const answer: CachedCompletion = {
  provider: 'openai',
  model: 'gpt-4o-mini',
  content: 'hello',
  toolCalls: [],
  finishReason: 'stop',
  usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 },
};

function callerWith(apiKeyPolicy: GatewayCaller['apiKeyPolicy']): GatewayCaller {
  return { merchantId: 'm1', apiKeyPolicy, attribution: { merchantId: 'm1', surface: 'gateway' } };
}

let state: StateStore | undefined;
afterEach(async () => {
  await state?.close();
  state = undefined;
});

function memoryState(): StateStore {
  state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger });
  return state;
}

describe('ResponseCachePolicy', () => {
  it('plans no caching for a session caller or a key without a cache setting', async () => {
    const { responseCache, configs } = memoryState();
    const policy = new ResponseCachePolicy({ cache: responseCache, configs, models: noModels });
    expect(await policy.planOf(callerWith(undefined), { model: 'x' }, undefined)).toBeUndefined();
    expect(await policy.planOf(callerWith({}), { model: 'x' }, undefined)).toBeUndefined();
  });

  it('finds a stored answer for the same request, ignores how it travels, and records the hit', async () => {
    const { responseCache, configs } = memoryState();
    const recorded: unknown[] = [];
    const policy = new ResponseCachePolicy({ cache: responseCache, configs, models: noModels, recordCall: (record) => recorded.push(record) });
    const caller = callerWith({ cache: { ttlS: 60 } });
    const first = await policy.planOf(caller, { model: 'x', messages: [] }, undefined);
    expect(first).toBeDefined();
    await policy.store(first!, answer, silentLogger);
    const again = await policy.planOf(caller, { model: 'x', messages: [], stream: true }, undefined);
    expect(await policy.lookup(again!, silentLogger)).toEqual(answer);
    policy.recordHit(answer, 2, true, caller.attribution);
    expect(recorded).toMatchObject([{ cacheHit: true, costUsd: 0, operation: 'stream', attribution: { merchantId: 'm1' } }]);
  });

  it('skips the lookup on no-cache and the store on no-store', async () => {
    const { responseCache, configs } = memoryState();
    const policy = new ResponseCachePolicy({ cache: responseCache, configs, models: noModels });
    const caller = callerWith({ cache: { ttlS: 60 } });
    const unstored = await policy.planOf(caller, { model: 'y' }, 'no-store');
    await policy.store(unstored!, answer, silentLogger);
    expect(await policy.lookup((await policy.planOf(caller, { model: 'y' }, undefined))!, silentLogger)).toBeUndefined();
    const fresh = await policy.planOf(caller, { model: 'y' }, 'no-cache');
    await policy.store(fresh!, answer, silentLogger);
    expect(await policy.lookup(fresh!, silentLogger)).toBeUndefined();
  });
});

describe('RouteGroupService', () => {
  it('stores, lists, reads with learned rates, and deletes a merchant’s group', async () => {
    const { configs, scores } = memoryState();
    const groups = new RouteGroupService({ configs, scores, models: noModels });
    const stored = await groups.put('m1', 'fast', { candidates: [{ provider: 'openai', model: 'gpt-4o-mini' }] });
    expect(stored).toMatchObject({ name: 'fast', bucketSize: 20, candidates: [{ provider: 'openai', model: 'gpt-4o-mini', weight: 1 }] });
    expect((await groups.list('m1')).map((group) => group.name)).toEqual(['fast']);
    expect((await groups.get('m1', 'fast')).candidates).toMatchObject([{ successRate: null, outcomes: 0, eliminated: false }]);
    expect(await groups.list('m2')).toEqual([]);
    await groups.delete('m1', 'fast');
    await expect(groups.get('m1', 'fast')).rejects.toMatchObject({ code: 'SY_MODEL_NOT_FOUND' });
  });

  it('refuses a group with an unknown provider as a coded error naming the candidates', async () => {
    const { configs, scores } = memoryState();
    const groups = new RouteGroupService({ configs, scores, models: noModels });
    const refused = await groups.put('m1', 'bad', { candidates: [{ provider: 'nobody', model: 'x' }] }).catch((error: unknown) => error);
    expect(SwitchyardError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 'SY_GATEWAY_REQUEST_UNSUPPORTED', details: { param: 'candidates' } });
    await expect(groups.delete('m1', 'bad')).rejects.toMatchObject({ code: 'SY_MODEL_NOT_FOUND' });
  });
});
