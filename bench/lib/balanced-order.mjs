// The order of the rows in each interleaved round of decide-bench: a Williams design, so that over
// a full cycle of rounds every row runs equally often in every position AND right after every other
// row. Plain rotation (round r starts at row r) balances positions only: each row then always
// follows the same row, and a row after a heavy one (more analytics to insert and merge, a bigger
// heap to collect) pays for its predecessor in every round.

/**
 * Rounds in one balanced cycle: `rows` when even, `2 × rows` when odd (an odd Latin square cannot
 * balance what follows what; with its mirror image it can).
 */
export function balancedCycle(rows) {
  return rows % 2 === 0 ? rows : 2 * rows;
}

/**
 * The row indexes of round `round` (0-based) for `rows` rows: the Williams sequence 0, 1, n−1, 2,
 * n−2, … shifted by the round, reversed in the second half of an odd cycle.
 */
export function balancedOrder(rows, round) {
  if (!Number.isInteger(rows) || rows < 1) throw new RangeError(`rows must be a whole number ≥ 1; got ${rows}`);
  const base = [0];
  for (let low = 1, high = rows - 1; base.length < rows; ) base.push(base.length % 2 === 1 ? low++ : high--);
  const order = base.map((row) => (row + round) % rows);
  return rows % 2 === 1 && Math.floor(round / rows) % 2 === 1 ? order.reverse() : order;
}
