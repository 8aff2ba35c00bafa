import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCachedStateStore } from '../../../src/adapters/cache/cached-state-store.js';
import { createMemoryStateStore } from '../../../src/adapters/memory/memory-state-store.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { RoutingAlgorithmRecord, StateStore } from '../../../src/ports/state-store.js';
import { createSequenceRandom } from '../../../src/decision/random-source.js';
import { evaluateActiveRule } from '../../../src/routing-rules/evaluate-active-rule.js';
import { createManualClock } from '../../../src/time/clock.js';

/*
 * "Compiled once, so evaluation does no parsing": the active algorithm is compiled on a replica's
 * first evaluation after each activation/update, not per evaluation. Counts the compiler's calls
 * behind the stores the runtime composes (embedded store; store behind the per-replica cache).
 */
const compiles = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src/routing-rules/index.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/routing-rules/index.js')>();
  return {
    ...original,
    compileRoutingAlgorithm: (...args: Parameters<typeof original.compileRoutingAlgorithm>) => {
      compiles.count += 1;
      return original.compileRoutingAlgorithm(...args);
    },
  };
});

const gw = (name: string) => ({ gateway_name: name, gateway_id: null });
const record = (id: string, gateway: string): RoutingAlgorithmRecord => ({
  id,
  createdBy: 'm1',
  name: id,
  description: '',
  algorithmFor: 'payment',
  algorithm: { type: 'single', data: gw(gateway) },
  metadata: null,
  createdAt: 0,
  modifiedAt: 0,
});

const stores: Record<string, () => StateStore> = {
  'embedded store': () => createMemoryStateStore({ dataDir: undefined, logger: silentLogger }),
  'store behind the replica cache': () =>
    createCachedStateStore(createMemoryStateStore({ dataDir: undefined, logger: silentLogger }), { logger: silentLogger, clock: createManualClock(0) }),
};

describe.each(Object.entries(stores))('the active algorithm is compiled once per change (%s)', (_label, open) => {
  let store: StateStore;
  afterEach(async () => store.close());

  const evaluateTwice = async () => {
    const outputs: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const outcome = evaluateActiveRule(await store.routingRules.loadActive('m1'), {}, null, createSequenceRandom([]));
      if (outcome.kind !== 'evaluated') throw new Error(outcome.kind);
      outputs.push(outcome.evaluation.evaluatedOutput[0]!.gateway_name);
    }
    return outputs;
  };

  it('compiles on the first evaluation only, and again after an update or another activation', async () => {
    store = open();
    compiles.count = 0;
    await store.routingRules.create(record('r1', 'stripe'));
    await store.routingRules.create(record('r2', 'adyen'));
    await store.routingRules.activate('m1', 'payment', 'r1');
    expect(await evaluateTwice()).toEqual(['stripe', 'stripe']);
    expect(compiles.count).toBe(1);

    await store.routingRules.activate('m1', 'payment', 'r2');
    expect(await evaluateTwice()).toEqual(['adyen', 'adyen']);
    expect(compiles.count).toBe(2);

    await store.routingRules.deactivate('m1', 'payment', 'r2');
    expect(await store.routingRules.update({ ...record('r2', 'checkout'), modifiedAt: 1 })).toBe('updated');
    await store.routingRules.activate('m1', 'payment', 'r2');
    expect(await evaluateTwice()).toEqual(['checkout', 'checkout']);
    expect(compiles.count).toBe(3);
  });
});
