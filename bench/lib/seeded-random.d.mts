// Types of seeded-random.mjs for its TypeScript importers.

export function seededRandom(seed: number): () => number;
