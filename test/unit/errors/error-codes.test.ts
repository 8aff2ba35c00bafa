import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCodes } from '../../../src/errors/codes.js';

describe('error code registry', () => {
  const docs = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');

  it('documents every code in docs/errors.md', () => {
    const missing = Object.keys(errorCodes).filter((code) => !docs.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });

  it('documents no code that does not exist', () => {
    const documented = [...docs.matchAll(/`(SY_[A-Z_]+)`/g)].map((match) => match[1]);
    expect(documented.filter((code) => !(code! in errorCodes))).toEqual([]);
  });
});
