// Types of bench-contract.mjs for the TypeScript benches (bench/decide-cost.ts).

export const benchContract: Readonly<Record<string, unknown>>;
export function activateBenchContract(merchant: string, post: (path: string, body: unknown) => Promise<unknown>): Promise<void>;
