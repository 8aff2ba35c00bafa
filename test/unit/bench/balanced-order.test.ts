import { describe, expect, it } from 'vitest';
import { balancedCycle, balancedOrder } from '../../../bench/lib/balanced-order.mjs';

/** How often each row runs in each position, and right after each other row, over `rounds` rounds. */
function tally(rows: number, rounds: number) {
  const positions = Array.from({ length: rows }, () => new Array<number>(rows).fill(0));
  const follows = Array.from({ length: rows }, () => new Array<number>(rows).fill(0));
  for (let round = 0; round < rounds; round++) {
    const order = balancedOrder(rows, round);
    for (const [position, row] of order.entries()) {
      positions[row]![position]! += 1;
      if (position > 0) follows[row]![order[position - 1]!]! += 1;
    }
  }
  return { positions, follows };
}

describe('balancedOrder (decide-bench interleaved rounds)', () => {
  it.each([2, 3, 4, 5, 6, 7])('over a cycle of %i rows every row runs once a round, equally often in every position and after every other row', (rows) => {
    const cycle = balancedCycle(rows);
    for (let round = 0; round < cycle; round++) expect([...balancedOrder(rows, round)].sort((a, b) => a - b)).toEqual([...Array(rows).keys()]);
    const { positions, follows } = tally(rows, cycle);
    const perPosition = cycle / rows;
    for (const row of positions) expect(row).toEqual(new Array(rows).fill(perPosition));
    // Each row follows every other row cycle / rows times (and never itself).
    const expected = (row: number) => Array.from({ length: rows }, (_, predecessor) => (predecessor === row ? 0 : cycle / rows));
    for (const [row, predecessors] of follows.entries()) expect(predecessors).toEqual(expected(row));
  });

  it('plain rotation, which it replaces, has each row follow the same row every round', () => {
    const rotation = (rows: number, round: number) => Array.from({ length: rows }, (_, position) => (position + round) % rows);
    const before = new Set<number>();
    for (let round = 0; round < 10; round++) {
      const order = rotation(5, round);
      before.add(order[order.indexOf(2) - 1] ?? -1);
    }
    // Row 2 only ever follows row 1 (or opens the round): the bias the balanced order removes.
    expect([...before].filter((row) => row >= 0)).toEqual([1]);
    const balanced = new Set<number>();
    for (let round = 0; round < 10; round++) {
      const order = balancedOrder(5, round);
      if (order.indexOf(2) > 0) balanced.add(order[order.indexOf(2) - 1]!);
    }
    expect([...balanced].sort()).toEqual([0, 1, 3, 4]);
  });

  it('refuses a row count that is not a whole number ≥ 1', () => {
    expect(() => balancedOrder(0, 0)).toThrow(RangeError);
    expect(() => balancedOrder(2.5, 0)).toThrow(RangeError);
  });
});
