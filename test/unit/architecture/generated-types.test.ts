import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('types generated from schemas/', () => {
  it('match the committed src/generated/schema-types.ts (run `npm run generate` when this fails)', async () => {
    // @ts-expect-error: a plain .mjs script without type declarations
    const { generate } = (await import('../../../scripts/generate-types.mjs')) as { generate: () => Promise<string> };
    const committed = readFileSync(new URL('../../../src/generated/schema-types.ts', import.meta.url), 'utf8');
    expect(await generate()).toBe(committed);
  }, 30_000);
});
