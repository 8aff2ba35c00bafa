import { afterEach, describe, expect, it } from 'vitest';
import { routeGroupNamed } from '../../../api/wire/gateway-guards.js';
import { createCachedStateStore } from '../../../src/adapters/cache/cached-state-store.js';
import { createMemoryStateStore } from '../../../src/adapters/memory/memory-state-store.js';
import { toRouteGroup } from '../../../src/generation/gateway/route-group.js';
import { GuardrailResolver } from '../../../src/guardrails/guardrail-resolver.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { ConfigName, StateStore } from '../../../src/ports/state-store.js';
import { createManualClock } from '../../../src/time/clock.js';

const group = (name: string) => toRouteGroup(name, { candidates: [{ provider: 'openai', model: 'gpt-4o-mini' }] });

/*
 * The gateway guards read a merchant's guard settings and route groups on every call: from the
 * caching decorator's held copy (what the decision path reads too), not from the store behind it,
 * and a write through the decorator applies to the very next call.
 */
describe('the gateway guards’ config reads', () => {
  let store: StateStore;
  afterEach(async () => store.close());

  it('reach the store once per change, answer the route group without a promise while held, and see a change at once', async () => {
    const inner = createMemoryStateStore({ dataDir: undefined, logger: silentLogger });
    const reads: ConfigName[] = [];
    const counted: StateStore = {
      ...inner,
      configs: {
        ...inner.configs,
        get: (merchantId, name) => {
          reads.push(name);
          return inner.configs.get(merchantId, name);
        },
      },
    };
    store = createCachedStateStore(counted, { logger: silentLogger, clock: createManualClock(0) });
    const resolver = new GuardrailResolver({ configs: store.configs });
    await store.configs.put('m1', 'guardrails', { routeGroups: { support: { phone: { action: 'block' } } } }, 'upsert');
    await store.configs.put('m1', 'llmRouteGroups', [group('support')], 'upsert');

    expect(await routeGroupNamed(store.configs, 'm1', 'support')).toBe('support');
    for (let call = 0; call < 3; call += 1) {
      expect((await resolver.settingsFor({ merchantId: 'm1', model: 'support' })).phone?.action).toBe('block');
      expect(routeGroupNamed(store.configs, 'm1', 'support')).toBe('support');
    }
    expect(routeGroupNamed(store.configs, 'm1', 'openai/gpt-4o-mini')).toBeUndefined();
    expect(reads.sort()).toEqual(['guardrails', 'llmRouteGroups']);

    await store.configs.put('m1', 'guardrails', { routeGroups: { support: { email: { action: 'block' } } } }, 'upsert');
    await store.configs.put('m1', 'llmRouteGroups', [group('sales')], 'upsert');
    const changed = await resolver.settingsFor({ merchantId: 'm1', model: 'support' });
    expect(changed.email?.action).toBe('block');
    expect(changed.phone).toBeUndefined();
    expect(await routeGroupNamed(store.configs, 'm1', 'support')).toBeUndefined();
    expect(routeGroupNamed(store.configs, 'm1', 'sales')).toBe('sales');
    expect(reads.sort()).toEqual(['guardrails', 'guardrails', 'llmRouteGroups', 'llmRouteGroups']);
  });
});
