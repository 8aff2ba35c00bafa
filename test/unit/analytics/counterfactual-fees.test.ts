import { describe, expect, it } from 'vitest';
import type { LoggedDecision } from '../../../src/analytics/counterfactual/logged-decision.js';
import { feesOf } from '../../../src/analytics/counterfactual/run-counterfactual.js';
import { defaultSeedCosts } from '../../../src/costs/default-seed-costs.js';
import type { CostModel } from '../../../src/ports/state/cost-model.js';

const decision = (gateway: string, candidates: readonly string[]): LoggedDecision => ({
  id: `d-${gateway}`,
  decidedAtMs: 0,
  gateway,
  routingApproach: 'SR_SELECTION_V3_ROUTING',
  windowDimension: 'w',
  amount: 100,
  propensity: 1,
  hedged: false,
  hedgingPercent: 0,
  bucketSize: 20,
  eliminationThreshold: null,
  eliminationDivisor: 1,
  multiObjective: false,
  candidates: candidates.map((name) => ({ gateway: name, score: 1, eliminationScore: null })),
  success: true,
  outcomeAtMs: 1,
});

describe('the fees the counterfactual prices EV with', () => {
  it('reads the seed table when no cost model prices a gateway, and leaves out a PSP neither lists', () => {
    const fees = feesOf([decision('stripe', ['stripe', 'adyen', 'acme'])], undefined, defaultSeedCosts);
    // The default rows: stripe 2.9 % + 0.30, adyen 1.94 % + 0.24; acme is in no table.
    expect(fees.get('stripe')).toEqual({ pctBps: 290, fixed: 0.3 });
    expect(fees.get('adyen')).toEqual({ pctBps: 194, fixed: 0.24 });
    expect(fees.has('acme')).toBe(false);
  });

  it('prefers the cost model (an override first) over the seed table', () => {
    const model: CostModel = {
      connectors: [
        { connector: 'stripe', account: 'a', model: { pctBps: 250, fixed: 0.2 }, goodGross: 1, override: { pctBps: 210, fixed: 0.1, updatedAt: 0 } },
      ],
      clusters: [],
      reportDate: null,
      updatedAt: 0,
    };
    const fees = feesOf([decision('stripe', ['stripe', 'adyen'])], model, defaultSeedCosts);
    expect(fees.get('stripe')).toEqual({ pctBps: 210, fixed: 0.1 });
    expect(fees.get('adyen')).toEqual({ pctBps: 194, fixed: 0.24 });
  });
});
