import { describe, expect, it } from 'vitest';
import { erfc, momentsOf, twoSampleZTest, twoSidedPValue } from '../../../src/experiments/two-sample-z-test.js';

describe('twoSidedPValue', () => {
  it('gives the textbook tail areas of the standard normal', () => {
    expect(twoSidedPValue(0)).toBeCloseTo(1, 6);
    expect(twoSidedPValue(1.959963984540054)).toBeCloseTo(0.05, 6);
    expect(twoSidedPValue(-1.959963984540054)).toBeCloseTo(0.05, 6);
    expect(twoSidedPValue(2.5758293035489)).toBeCloseTo(0.01, 6);
    expect(twoSidedPValue(1)).toBeCloseTo(0.3173105078629141, 6);
    expect(twoSidedPValue(3)).toBeCloseTo(0.0026997960632601866, 7);
  });

  it('keeps erfc within its fit error against known values', () => {
    expect(erfc(0.5)).toBeCloseTo(0.4795001221869535, 6);
    expect(erfc(-0.5)).toBeCloseTo(1.5204998778130465, 6);
  });
});

describe('twoSampleZTest', () => {
  it('reproduces the unpooled two-proportion test on 0/1 outcomes', () => {
    // control 900/1000 = 0.90, variant 850/1000 = 0.85, sample (n − 1) variances.
    const control = momentsOf(1000, 900, 900);
    const variant = momentsOf(1000, 850, 850);
    if (control === undefined || variant === undefined) throw new Error('moments');
    const result = twoSampleZTest(control, variant);
    if (result === undefined) throw new Error('no test');
    const varianceOf = (p: number) => (p * (1 - p) * 1000) / 999;
    const se = Math.sqrt(varianceOf(0.9) / 1000 + varianceOf(0.85) / 1000);
    expect(result.delta).toBeCloseTo(-0.05, 12);
    expect(result.standardError).toBeCloseTo(se, 12);
    expect(result.z).toBeCloseTo(-0.05 / se, 9);
    // z ≈ −3.38862 → p ≈ 0.00070245 (Python math.erfc(3.38862 / √2))
    expect(result.z).toBeCloseTo(-3.38862, 4);
    expect(result.pValue).toBeCloseTo(0.00070245, 7);
    expect(result.confidenceInterval[0]).toBeCloseTo(-0.05 - 1.959963984540054 * se, 9);
    expect(result.confidenceInterval[1]).toBeCloseTo(-0.05 + 1.959963984540054 * se, 9);
  });

  it('finds no difference between equal samples', () => {
    const a = momentsOf(500, 400, 400);
    if (a === undefined) throw new Error('moments');
    const result = twoSampleZTest(a, a);
    expect(result?.pValue).toBeCloseTo(1, 6);
  });

  it('has nothing to test when both samples are constant', () => {
    const allSuccess = momentsOf(100, 100, 100);
    if (allSuccess === undefined) throw new Error('moments');
    expect(twoSampleZTest(allSuccess, allSuccess)).toBeUndefined();
  });

  it('needs two observations for a variance', () => {
    expect(momentsOf(1, 1, 1)).toBeUndefined();
  });
});
