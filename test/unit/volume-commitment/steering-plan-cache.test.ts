import { describe, expect, it } from 'vitest';
import { createMemoryStateStore } from '../../../src/adapters/memory/memory-state-store.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { SteeringPlan } from '../../../src/ports/state/volume-commitment.js';
import { createManualClock } from '../../../src/time/clock.js';
import { createSteeringPlanCache, steeringPlanTtlMs } from '../../../src/volume-commitment/steering-plan-cache.js';

function plan(runId: string): SteeringPlan {
  return {
    merchantId: 'm1',
    runId,
    ruleId: 'r',
    contractAnchorMs: 0,
    computedAtMs: 0,
    staleAfterMs: 1,
    tolerance: 0.05,
    psps: [],
    dropped: [],
    measuredDailyTraffic: null,
  };
}

/** The plan as the cache answers it, awaited when it had to be read. */
const settled = async (value: SteeringPlan | undefined | Promise<SteeringPlan | undefined>) => value;

describe('steering plan cache', () => {
  it('reads a plan once, then answers it synchronously until the TTL passes', async () => {
    const clock = createManualClock();
    const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
    let reads = 0;
    const configs = {
      get: ((merchantId, name) => {
        reads += 1;
        return state.configs.get(merchantId, name);
      }) as typeof state.configs.get,
    };
    const plans = createSteeringPlanCache({ configs, clock });
    expect(await settled(plans.planOf('m1'))).toBeUndefined();
    // "No plan" is held too: a merchant before its first forecast costs no read per decision.
    expect(plans.planOf('m1')).toBeUndefined();
    expect(reads).toBe(1);
    await state.configs.put('m1', 'volumeCommitmentPlan', plan('a'), 'upsert');
    // Not listening to the store: only the TTL brings the published plan in.
    clock.advance(steeringPlanTtlMs - 1);
    expect(plans.planOf('m1')).toBeUndefined();
    clock.advance(1);
    expect(await settled(plans.planOf('m1'))).toMatchObject({ runId: 'a' });
    expect(plans.planOf('m1')).toMatchObject({ runId: 'a' });
    expect(reads).toBe(2);
    await state.close();
  });

  it("drops a merchant's plan the moment the forecaster publishes another, and keeps the others", async () => {
    const clock = createManualClock();
    const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
    await state.configs.put('m1', 'volumeCommitmentPlan', plan('a'), 'upsert');
    await state.configs.put('m2', 'volumeCommitmentPlan', plan('b'), 'upsert');
    const plans = createSteeringPlanCache({ configs: state.configs, clock, onInvalidation: state.onInvalidation });
    expect(await settled(plans.planOf('m1'))).toMatchObject({ runId: 'a' });
    expect(await settled(plans.planOf('m2'))).toMatchObject({ runId: 'b' });
    await state.configs.put('m1', 'volumeCommitmentPlan', plan('a2'), 'upsert');
    await state.configs.put('m1', 'successRate', { defaultBucketSize: 3 }, 'upsert');
    const next = plans.planOf('m1');
    expect(next).toBeInstanceOf(Promise);
    expect(await next).toMatchObject({ runId: 'a2' });
    expect(plans.planOf('m2')).toMatchObject({ runId: 'b' });
    await state.configs.delete('m1', 'volumeCommitmentPlan');
    expect(await settled(plans.planOf('m1'))).toBeUndefined();
    await state.close();
  });

  it('does not hold a plan read that an invalidation overtook', async () => {
    const clock = createManualClock();
    const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
    await state.configs.put('m1', 'volumeCommitmentPlan', plan('old'), 'upsert');
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const configs = {
      get: (async (merchantId, name) => {
        const value = await state.configs.get(merchantId, name);
        await gate;
        return value;
      }) as typeof state.configs.get,
    };
    const plans = createSteeringPlanCache({ configs, clock, onInvalidation: state.onInvalidation });
    const inFlight = plans.planOf('m1');
    await state.configs.put('m1', 'volumeCommitmentPlan', plan('new'), 'upsert');
    release();
    expect(await inFlight).toMatchObject({ runId: 'old' });
    expect(await settled(plans.planOf('m1'))).toMatchObject({ runId: 'new' });
    await state.close();
  });
});
