import { describe, expect, it } from 'vitest';
import { assignArm } from '../../../src/experiments/assign-arm.js';
import { armLayerProblems, planOf, project, resolvedArm, splitsOn } from '../../../src/experiments/experiment-arms.js';
import type { AbTestData } from '../../../src/ports/state/routing-algorithm.js';

const base = { variant_split_pct: 30, min_sample_size: 100, guardrail_threshold_pp: 3 };

/** A: rule 1 + SR with autopilot; B: rule 2 + SR with autopilot and cost savings (the peer's example). */
const ruleAndSr: AbTestData = {
  ...base,
  control: { rule_algorithm_id: 'rule_1', sr: { use_autopilot: true } },
  variant: { rule_algorithm_id: 'rule_2', sr: { use_autopilot: true, enable_multi_objective: true } },
};

describe('layered experiment arms', () => {
  it('applies the rule layer alone on /routing/evaluate and both layers on the decision endpoints', () => {
    const variant = resolvedArm(ruleAndSr, 'variant');
    expect(project(variant, 'evaluate')).toEqual({ rule: 'rule_2' });
    expect(project(variant, 'decide_gateway')).toEqual({ rule: 'rule_2', sr: { use_autopilot: true, enable_multi_objective: true } });
    expect(project(variant, 'hybrid_routing')).toEqual(project(variant, 'decide_gateway'));
    for (const endpoint of ['evaluate', 'decide_gateway', 'hybrid_routing'] as const) expect(splitsOn(ruleAndSr, endpoint)).toBe(true);
  });

  it('reads the single-strategy form as one layer: sr_routing with its override, or a rule id', () => {
    const single: AbTestData = { ...base, control_algorithm_id: 'rule_1', variant_algorithm_id: 'sr_routing', variant_sr_config: { hedging_percent: 0 } };
    expect(resolvedArm(single, 'control')).toEqual({ rule_algorithm_id: 'rule_1' });
    expect(resolvedArm(single, 'variant')).toEqual({ sr: { hedging_percent: 0 } });
    expect(resolvedArm({ ...single, control_algorithm_id: 'sr_routing' }, 'control')).toEqual({ sr: {} });
    // The layered form wins when both are given.
    expect(resolvedArm({ ...single, variant: { rule_algorithm_id: 'rule_9' } }, 'variant')).toEqual({ rule_algorithm_id: 'rule_9' });
  });

  it('does not split where the arms apply the same layers, or outside the endpoint scope', () => {
    const srOnly: AbTestData = { ...base, control: { sr: {} }, variant: { sr: { hedging_percent: 0 } } };
    expect(splitsOn(srOnly, 'evaluate')).toBe(false);
    expect(splitsOn(srOnly, 'decide_gateway')).toBe(true);
    expect(planOf(srOnly, 'evaluate', 'pay_1')).toEqual({ arm: 'control', projection: {}, inExperiment: false });
    const scoped: AbTestData = { ...ruleAndSr, endpoints: ['hybrid_routing'] };
    expect(splitsOn(scoped, 'hybrid_routing')).toBe(true);
    expect(splitsOn(scoped, 'decide_gateway')).toBe(false);
    expect(splitsOn(scoped, 'evaluate')).toBe(false);
  });

  it('puts a payment in the same arm on every endpoint, the arm of its hash', () => {
    for (let index = 0; index < 200; index += 1) {
      const paymentId = `pay_${index}`;
      const arms = (['evaluate', 'decide_gateway', 'hybrid_routing'] as const).map((endpoint) => planOf(ruleAndSr, endpoint, paymentId).arm);
      expect(new Set(arms)).toEqual(new Set([assignArm(paymentId, 30)]));
    }
  });

  it('names an arm without a layer, an empty endpoint list and arms that never differ', () => {
    expect(armLayerProblems({ ...base, control: {}, variant: { sr: {} } }).map((problem) => problem.path)).toEqual(['data.control']);
    expect(armLayerProblems({ ...ruleAndSr, endpoints: [] }).map((problem) => problem.path)).toEqual(['data.endpoints']);
    // Only the SR layer differs, but the experiment is scoped to /routing/evaluate, where no SR layer applies.
    const nothingSplits: AbTestData = {
      ...base,
      control: { rule_algorithm_id: 'r', sr: {} },
      variant: { rule_algorithm_id: 'r', sr: { margin: 0.2 } },
      endpoints: ['evaluate'],
    };
    expect(armLayerProblems(nothingSplits)).toEqual([
      { path: 'data.variant', message: 'control and variant apply the same layers on every selected endpoint' },
    ]);
    expect(armLayerProblems(ruleAndSr)).toEqual([]);
  });
});
