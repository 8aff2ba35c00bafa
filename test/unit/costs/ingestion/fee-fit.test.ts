import { describe, expect, it } from 'vitest';
import { addRow, emptySums, fitCluster, maxGoodRmseBps, mergeSums, microAmountFloor, minGoodRows } from '../../../../src/costs/ingestion/fee-fit.js';
import type { ClusterSums } from '../../../../src/ports/state/cost-ingestions.js';

/** A deterministic spread of amounts (no Math.random: the test must fail the same way every time). */
const amounts = (count: number, from = 10, to = 1_000) => Array.from({ length: count }, (_, i) => from + ((i * 7_919) % 1_000) * ((to - from) / 1_000));
const cents = (value: number) => Math.round(value * 100) / 100;
const sumsOf = (rows: readonly (readonly [number, number])[]): ClusterSums => rows.reduce((sums, [x, y]) => addRow(sums, x, y), emptySums);

describe('the per-cluster fee fit', () => {
  it('recovers a known percentage and fixed fee from synthetic rows rounded to the cent', () => {
    const rows = amounts(400).map((x) => [x, cents(x * 0.029 + 0.3)] as const);
    const fit = fitCluster(sumsOf(rows));
    expect(fit.model.pctBps).toBeCloseTo(290, 0);
    expect(fit.model.fixed).toBeCloseTo(0.3, 2);
    expect(fit.quality).toBe('GOOD');
    expect(fit.bpsRmse).toBeLessThan(2);
  });

  it('recovers the fee exactly from unrounded rows, with no error', () => {
    const fit = fitCluster(sumsOf(amounts(250).map((x) => [x, x * 0.0125 + 0.05] as const)));
    expect(fit.model.pctBps).toBeCloseTo(125, 6);
    expect(fit.model.fixed).toBeCloseTo(0.05, 8);
    expect(fit.bpsRmse).toBeLessThan(1e-3);
  });

  it('gives the same fit for sums merged from two uploads as for one upload of all rows', () => {
    const rows = amounts(300).map((x) => [x, cents(x * 0.018 + 0.1)] as const);
    const whole = fitCluster(sumsOf(rows));
    const merged = fitCluster(mergeSums(sumsOf(rows.slice(0, 120)), sumsOf(rows.slice(120))));
    expect(merged.model.pctBps).toBeCloseTo(whole.model.pctBps, 9);
    expect(merged.model.fixed).toBeCloseTo(whole.model.fixed, 9);
    expect(merged.bpsRmse).toBeCloseTo(whole.bpsRmse, 9);
  });

  it('grades a tiered fee that no line describes NON_LINEAR once it has enough rows, THIN before', () => {
    // 3 % up to 100, then a cap of 3.00: a line misses both ends by far more than 15 bps.
    const tiered = (x: number) => [x, Math.min(x * 0.03, 3)] as const;
    const many = fitCluster(sumsOf(amounts(minGoodRows).map(tiered)));
    expect(many.bpsRmse).toBeGreaterThan(maxGoodRmseBps);
    expect(many.quality).toBe('NON_LINEAR');
    expect(fitCluster(sumsOf(amounts(50).map(tiered))).quality).toBe('THIN');
  });

  it('grades a small cluster GOOD only when its rate is pinned down, THIN when noisy', () => {
    expect(fitCluster(sumsOf(amounts(40).map((x) => [x, x * 0.02 + 0.1] as const))).quality).toBe('GOOD');
    const noisy = amounts(40).map((x, i) => [x, x * 0.02 + 0.1 + (i % 2 === 0 ? 0.004 : -0.004) * x] as const);
    expect(fitCluster(sumsOf(noisy)).quality).toBe('THIN');
  });

  it('leaves rows under the micro-amount floor out of the fit, and cannot split pct from fixed without a spread of amounts', () => {
    expect(addRow(emptySums, microAmountFloor - 0.01, 0.4)).toBe(emptySums);
    const same = fitCluster(sumsOf(Array.from({ length: 300 }, () => [100, 2.1] as const)));
    expect(same.quality).toBe('THIN');
    expect(same.model.pctBps).toBeCloseTo(210, 6);
  });
});
