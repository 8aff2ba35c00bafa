import type { ConfigStore } from '../ports/state/config-store.js';
import { configInvalidationKey } from '../ports/state/config-store.js';
import type { SteeringPlan } from '../ports/state/volume-commitment.js';
import type { StateStore } from '../ports/state-store.js';
import type { Clock } from '../time/clock.js';

/** The decision's source of steering plans: synchronous while the merchant's plan is held. */
export interface SteeringPlans {
  /** The merchant's published plan (undefined: none), from memory when held, else read and held. */
  planOf(merchantId: string): SteeringPlan | undefined | Promise<SteeringPlan | undefined>;
}

/**
 * 5 s: a safety net only. A published plan reaches every replica through the state store's
 * invalidation channel at once; the TTL bounds how long a lost message can leave a replica
 * steering by the previous plan (the forecaster republishes every few minutes).
 */
export const steeringPlanTtlMs = 5_000;
/** Held merchants before the whole map is dropped (only merchants deciding with an active commitment are held). */
const maxHeldMerchants = 10_000;

interface Held {
  readonly plan: SteeringPlan | undefined;
  readonly loadedAt: number;
}

/**
 * Per-merchant steering plans held in process memory for the decision path (issue 35): a decision
 * with volume-contracts on reads its plan without an await. A plan is dropped when its config
 * document is written (the forecaster publishing; the invalidation the caching decorator or the
 * embedded store announces) and after {@link steeringPlanTtlMs} in any case. A read in flight when
 * an invalidation arrives is not held, so it cannot put the older plan back.
 */
export function createSteeringPlanCache(deps: {
  readonly configs: Pick<ConfigStore, 'get'>;
  readonly clock: Clock;
  /** The state store's invalidation channel; absent: the TTL alone bounds staleness. */
  readonly onInvalidation?: StateStore['onInvalidation'];
  readonly ttlMs?: number;
}): SteeringPlans {
  const ttlMs = deps.ttlMs ?? steeringPlanTtlMs;
  const held = new Map<string, Held>();
  /** Bumped by every invalidation of a plan: a read that started before one is not held. */
  let generation = 0;
  deps.onInvalidation?.((key) => {
    // Config keys are `config:<merchant>:<name>`; only plan documents concern this cache.
    if (!key.endsWith(':volumeCommitmentPlan') || !key.startsWith('config:')) return;
    const merchantId = key.slice('config:'.length, key.length - ':volumeCommitmentPlan'.length);
    if (key !== configInvalidationKey(merchantId, 'volumeCommitmentPlan')) return;
    generation += 1;
    held.delete(merchantId);
  });
  const load = async (merchantId: string): Promise<SteeringPlan | undefined> => {
    const startedAt = generation;
    const plan = await deps.configs.get(merchantId, 'volumeCommitmentPlan');
    if (generation === startedAt) {
      if (held.size >= maxHeldMerchants) held.clear();
      held.set(merchantId, { plan, loadedAt: deps.clock.now() });
    }
    return plan;
  };
  return {
    planOf(merchantId) {
      const hit = held.get(merchantId);
      if (hit !== undefined && deps.clock.now() - hit.loadedAt < ttlMs) return hit.plan;
      return load(merchantId);
    },
  };
}
