import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type EvCandidate, expectedValue, rankByExpectedValue } from '../../../../src/decision/multi-objective/rank-by-expected-value.js';

/** Candidates in SR order: distinct names, auth rates sorted descending, some without fee data. */
const srOrdered = fc
  .uniqueArray(
    fc.record({
      psp: fc.stringMatching(/^[a-z]{1,8}$/),
      authRate: fc.double({ min: 0, max: 1, noNaN: true }),
      costBps: fc.option(fc.double({ min: 0, max: 2_000, noNaN: true }), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 8, selector: (candidate) => candidate.psp },
  )
  .map((candidates) => [...candidates].sort((a, b) => b.authRate - a.authRate) as EvCandidate[]);
const margins = fc.double({ min: 0, max: 1.5, noNaN: true });

const evOf = (candidate: EvCandidate, margin: number): number =>
  candidate.costBps === undefined ? Number.NEGATIVE_INFINITY : expectedValue(candidate.authRate, candidate.costBps, margin);

describe('the expected-value post-step', () => {
  it('never promotes a gateway without fee data', () => {
    fc.assert(
      fc.property(srOrdered, margins, (candidates, margin) => {
        const ranking = rankByExpectedValue(candidates, margin);
        const info = ranking.info();
        const { order, outcome } = ranking;
        // The verdict's outcome is the block's, without building the block.
        expect(outcome).toBe(info.outcome);
        const chosen = candidates.find((candidate) => candidate.psp === order[0]);
        if (info.outcome === 'COST_WON') expect(chosen?.costBps).toBeDefined();
        if (chosen?.costBps === undefined) expect(order[0]).toBe(candidates[0]?.psp);
      }),
    );
  });

  it('never lowers the expected value of the pick below the SR head, and promotes only on a strictly higher one', () => {
    fc.assert(
      fc.property(srOrdered, margins, (candidates, margin) => {
        const ranking = rankByExpectedValue(candidates, margin);
        const info = ranking.info();
        const { order } = ranking;
        const head = candidates[0] as EvCandidate;
        const chosen = candidates.find((candidate) => candidate.psp === order[0]) as EvCandidate;
        if (head.costBps !== undefined) expect(evOf(chosen, margin)).toBeGreaterThanOrEqual(evOf(head, margin));
        if (info.outcome === 'COST_WON') {
          expect(evOf(chosen, margin)).toBeGreaterThan(evOf(head, margin));
          expect(info.costSavedBps).toBeCloseTo((head.costBps as number) - (chosen.costBps as number), 9);
        }
      }),
    );
  });

  it('keeps the SR head at the head on AUTH_WON, and the whole SR order when the head has no fee data', () => {
    fc.assert(
      fc.property(srOrdered, margins, (candidates, margin) => {
        const ranking = rankByExpectedValue(candidates, margin);
        const info = ranking.info();
        const { order } = ranking;
        if (info.outcome === 'AUTH_WON') {
          expect(order[0]).toBe(candidates[0]?.psp);
          expect(info.chosen).toEqual(info.srHead);
          expect(info.costSavedBps).toBeNull();
        }
        if (candidates[0]?.costBps === undefined) expect(order).toEqual(candidates.map((candidate) => candidate.psp));
      }),
    );
  });

  it('orders the fallbacks by descending EV, then the gateways without fee data by descending auth rate', () => {
    fc.assert(
      fc.property(srOrdered, margins, (candidates, margin) => {
        const { order } = rankByExpectedValue(candidates, margin);
        expect([...order].sort()).toEqual(candidates.map((candidate) => candidate.psp).sort());
        if (candidates[0]?.costBps === undefined) return;
        const fallbacks = order.slice(1).map((psp) => candidates.find((candidate) => candidate.psp === psp) as EvCandidate);
        const priced = fallbacks.filter((candidate) => candidate.costBps !== undefined);
        const unpriced = fallbacks.filter((candidate) => candidate.costBps === undefined);
        expect(fallbacks).toEqual([...priced, ...unpriced]);
        for (let index = 1; index < priced.length; index += 1) {
          expect(evOf(priced[index - 1] as EvCandidate, margin)).toBeGreaterThanOrEqual(evOf(priced[index] as EvCandidate, margin));
        }
        for (let index = 1; index < unpriced.length; index += 1) {
          expect((unpriced[index - 1] as EvCandidate).authRate).toBeGreaterThanOrEqual((unpriced[index] as EvCandidate).authRate);
        }
      }),
    );
  });

  it('keeps gateways of equal expected value in SR order behind the pick', () => {
    const candidates: EvCandidate[] = [
      { psp: 'a', authRate: 0.9, costBps: 100 },
      { psp: 'b', authRate: 0.9, costBps: 300 },
      { psp: 'c', authRate: 0.9, costBps: 100 },
      { psp: 'd', authRate: 0.9, costBps: 50 },
      { psp: 'e', authRate: 0.9, costBps: 100 },
    ];
    expect(rankByExpectedValue(candidates, 1).order).toEqual(['d', 'a', 'c', 'e', 'b']);
  });

  it('counts the PSPs ranked on EV and reports the gap between the top two', () => {
    fc.assert(
      fc.property(srOrdered, margins, (candidates, margin) => {
        const ranking = rankByExpectedValue(candidates, margin);
        const info = ranking.info();
        expect(info.margin).toBe(margin);
        if (candidates.length < 2 || candidates[0]?.costBps === undefined) {
          expect(info.qualifiedCount).toBe(0);
          expect(info.evGapTop2).toBeNull();
          return;
        }
        const evs = candidates.filter((candidate) => candidate.costBps !== undefined).map((candidate) => evOf(candidate, margin));
        expect(info.qualifiedCount).toBe(evs.length);
        evs.sort((a, b) => b - a);
        if (evs.length < 2) expect(info.evGapTop2).toBeNull();
        else expect(info.evGapTop2).toBeCloseTo((evs[0] as number) - (evs[1] as number), 12);
      }),
    );
  });

  it("reproduces the peer's worked example: B promoted over head A at margin 0.20", () => {
    const ranking = rankByExpectedValue(
      [
        { psp: 'A', authRate: 0.91, costBps: 200 },
        { psp: 'B', authRate: 0.902, costBps: 150 },
        { psp: 'C', authRate: 0.885, costBps: 120 },
        { psp: 'D', authRate: 0.85, costBps: 110 },
        { psp: 'E', authRate: 0.95 - 0.2, costBps: undefined },
      ],
      0.2,
    );
    const info = ranking.info();
    const { order } = ranking;
    expect(order).toEqual(['B', 'C', 'A', 'D', 'E']);
    expect(info).toMatchObject({ outcome: 'COST_WON', qualifiedCount: 4, costSavedBps: 50, margin: 0.2 });
    expect(info.evGapTop2).toBeCloseTo(0.00049, 9);
    expect(info.reason).toBe("Promoted 'B' over 'A' on expected value — saves 50.00 bps for 0.80pp auth.");
  });

  it('keeps the head when it is already the highest expected value', () => {
    const ranking = rankByExpectedValue(
      [
        { psp: 'A', authRate: 0.91, costBps: 100 },
        { psp: 'B', authRate: 0.905, costBps: 130 },
      ],
      0.2,
    );
    const info = ranking.info();
    const { order } = ranking;
    expect(order).toEqual(['A', 'B']);
    expect(info).toMatchObject({ outcome: 'AUTH_WON', reason: 'SR head retained — it is the highest expected-value PSP (2 ranked on EV).' });
    expect(info.evGapTop2).toBeCloseTo(0.003665, 9);
  });
});
