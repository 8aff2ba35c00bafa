import { describe, expect, it } from 'vitest';
import { defaultCalibrationBounds } from '../../../../src/decision/autopilot/calibration-formulas.js';
import { candidateConfigurations, chooseConfiguration } from '../../../../src/decision/autopilot/choose-configuration.js';
import { applySettings, planSegments } from '../../../../src/decision/autopilot/plan-calibration.js';
import { resolveSrParameters } from '../../../../src/decision/resolve-sr-parameters.js';
import { defaultRoutingDefaults } from '../../../../src/decision/routing-defaults.js';
import type { SuccessRateConfig } from '../../../../src/generated/schema-types.js';
import type { SegmentTraffic } from '../../../../src/ports/analytics/segment-traffic.js';

const bounds = defaultCalibrationBounds;

function traffic(paymentMethod: string, volume: number, gateways: number, extra: Partial<SegmentTraffic> = {}): SegmentTraffic {
  return { paymentMethodType: 'CARD', paymentMethod, cardNetwork: null, currency: null, country: null, authType: null, volume, gateways, ...extra };
}

const formulaOf = (config: SuccessRateConfig | undefined, rows: readonly SegmentTraffic[]) => {
  const plans = planSegments(config, rows, bounds);
  return {
    plans,
    ...applySettings(
      config,
      plans,
      plans.map((plan) => plan.proposal),
    ),
  };
};

describe('autopilot planning and writing', () => {
  it('skips segments under the minimum volume or with one gateway', () => {
    const plans = planSegments(undefined, [traffic('CREDIT', 99, 3), traffic('DEBIT', 5_000, 1), traffic('UPI', 100, 2)], bounds);
    expect(plans.map((plan) => plan.segment.paymentMethod)).toEqual(['UPI']);
  });

  it('creates tagged entries, keeps every other field and entry, and the decision resolves them', () => {
    const human = { paymentMethodType: 'WALLET', paymentMethod: 'PAYPAL', bucketSize: 40, hedgingPercent: 2 };
    const config: SuccessRateConfig = { defaultBucketSize: 200, margin: 1.2, subLevelInputConfig: [human] };
    const result = formulaOf(config, [traffic('CREDIT', 10_000, 3, { currency: 'USD' })]);
    expect(result.changed).toBe(true);
    expect(result.config.defaultBucketSize).toBe(200);
    expect(result.config.margin).toBe(1.2);
    expect(result.config.subLevelInputConfig).toEqual([
      human,
      { paymentMethodType: 'CARD', paymentMethod: 'CREDIT', currency: 'USD', bucketSize: 350, hedgingPercent: 7, source: 'autopilot' },
    ]);
    expect(result.changes[0]).toMatchObject({ action: 'created', before: null, after: { bucketSize: 350, hedgingPercent: 7 } });
    const payment = { paymentMethodType: 'CARD', paymentMethod: 'CREDIT', cardNetwork: null, cardIsIn: null, currency: 'USD', country: null, authType: null };
    expect(resolveSrParameters(result.config, payment, defaultRoutingDefaults)).toMatchObject({
      bucketSize: 350,
      hedgingPercent: 7,
    });
    // The input document is not modified (the caller's old document stays whole).
    expect(config.subLevelInputConfig).toEqual([human]);
  });

  it('updates its own entry only past a deadband', () => {
    const own = { paymentMethodType: 'CARD', paymentMethod: 'CREDIT', bucketSize: 340, hedgingPercent: 7.4, source: 'autopilot' };
    const within = formulaOf({ subLevelInputConfig: [own] }, [traffic('CREDIT', 10_000, 3)]);
    expect(within.changed).toBe(false);
    expect(within.changes[0]).toMatchObject({ action: 'unchanged', before: { bucketSize: 340, hedgingPercent: 7.4 } });
    const past = formulaOf({ subLevelInputConfig: [{ ...own, bucketSize: 300 }] }, [traffic('CREDIT', 10_000, 3)]);
    expect(past.changed).toBe(true);
    expect(past.config.subLevelInputConfig).toEqual([{ ...own, bucketSize: 350, hedgingPercent: 7 }]);
    expect(past.changes[0]).toMatchObject({
      action: 'updated',
      before: { bucketSize: 300, hedgingPercent: 7.4 },
      after: { bucketSize: 350, hedgingPercent: 7 },
    });
  });

  it('never touches a human entry for the segment, nor a segment a broader human entry sets', () => {
    const exact = { paymentMethodType: 'card', paymentMethod: 'credit', bucketSize: 42, hedgingPercent: 3, source: null };
    const broad = { paymentMethodType: 'CARD', hedgingPercent: 9 };
    const latencyOnly = { paymentMethodType: 'UPI', latencyThreshold: 5 };
    const config: SuccessRateConfig = { subLevelInputConfig: [exact, latencyOnly] };
    const first = formulaOf(config, [traffic('CREDIT', 10_000, 3)]);
    expect(first.changed).toBe(false);
    expect(first.changes[0]).toMatchObject({ action: 'human', after: null, proposed: { bucketSize: 350, hedgingPercent: 7 } });
    // A broader human entry that sets a knob holds the segment; one that sets neither does not.
    const second = formulaOf({ subLevelInputConfig: [broad, latencyOnly] }, [
      traffic('DEBIT', 10_000, 3),
      { ...traffic('UPI', 10_000, 3), paymentMethodType: 'UPI' },
    ]);
    expect(second.changes.map((change) => change.action)).toEqual(['human', 'created']);
    expect(second.config.subLevelInputConfig?.slice(0, 2)).toEqual([broad, latencyOnly]);
  });

  it('drops its own entry when a human entry comes to cover the segment (it would out-rank the human one)', () => {
    const own = { paymentMethodType: 'CARD', paymentMethod: 'CREDIT', bucketSize: 350, hedgingPercent: 7, source: 'autopilot' };
    const human = { paymentMethodType: 'CARD', bucketSize: 80 };
    const result = formulaOf({ subLevelInputConfig: [human, own] }, [traffic('CREDIT', 10_000, 3)]);
    expect(result.changed).toBe(true);
    expect(result.config.subLevelInputConfig).toEqual([human]);
  });

  it('without an estimator chooses the formula; the current candidate writes nothing', async () => {
    const plans = planSegments(undefined, [traffic('CREDIT', 10_000, 3)], bounds);
    const candidates = candidateConfigurations(plans, bounds);
    expect(candidates.map((candidate) => candidate.name)).toEqual(['formula', 'current', 'formula_bucket_x0.5', 'formula_bucket_x2']);
    expect(candidates[2]!.settings[0]).toEqual({ bucketSize: 175, hedgingPercent: 3.5 });
    expect(candidates[3]!.settings[0]).toEqual({ bucketSize: 700, hedgingPercent: 14 });
    const choice = await chooseConfiguration(candidates, plans);
    expect(choice).toMatchObject({ chosen: { name: 'formula' }, chosenBy: 'formula' });
    expect(applySettings(undefined, plans, candidates[1]!.settings).changed).toBe(false);
  });

  it('with an estimator picks another candidate only when its interval clears the formula', async () => {
    const scope = { merchantId: 'm', sinceMs: 0, untilMs: 1 };
    const plans = planSegments(undefined, [traffic('CREDIT', 10_000, 3)], bounds);
    const candidates = candidateConfigurations(plans, bounds);
    const rates: Record<string, [number, number, number]> = {
      formula: [0.8, 0.78, 0.82],
      current: [0.81, 0.79, 0.83],
      'formula_bucket_x0.5': [0.86, 0.84, 0.88],
      formula_bucket_x2: [0.9, 0.7, 0.99],
    };
    const choice = await chooseConfiguration(
      candidates,
      plans,
      async (candidate) => {
        const [rate, low, high] = rates[candidate.name]!;
        return { supported: true, successRate: rate, interval: [low, high] };
      },
      scope,
    );
    expect(choice.chosen.name).toBe('formula_bucket_x0.5');
    expect(choice.chosenBy).toBe('counterfactual');
    expect(choice.candidates[0]).toEqual({ name: 'formula', estimatedSuccessRate: 0.8, interval: [0.78, 0.82] });
    const unsupported = await chooseConfiguration(candidates, plans, async () => ({ supported: false, reason: 'no overlap' }), scope);
    expect(unsupported).toMatchObject({ chosen: { name: 'formula' }, chosenBy: 'formula' });
  });
});
