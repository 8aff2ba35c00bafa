// Types of balanced-order.mjs for its unit test.

export function balancedCycle(rows: number): number;
export function balancedOrder(rows: number, round: number): number[];
