import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { customerKeyOf } from '../../../../src/decision/sticky/sticky-key.js';

const sha256 = (text: string) => hash('sha256', text);

describe('customerKeyOf', () => {
  it('is the SHA-256 of the trimmed id, the same for every spelling with blanks around it, asked once or again', () => {
    expect(customerKeyOf('cust-42')).toBe(sha256('cust-42'));
    expect(customerKeyOf('  cust-42\t')).toBe(sha256('cust-42'));
    // The second call answers from the cache: still the id's own key, not a neighbour's.
    expect(customerKeyOf('cust-42')).toBe(sha256('cust-42'));
    expect(customerKeyOf('cust-43')).toBe(sha256('cust-43'));
  });

  it('keys an id longer than the schemas allow (never cached) and more ids than the cache holds alike', () => {
    const long = `c${'x'.repeat(300)}`;
    expect(customerKeyOf(long)).toBe(sha256(long));
    expect(customerKeyOf(long)).toBe(sha256(long));
    // Past the cache's bound it starts over: every id still gets its own key, before and after.
    for (let i = 0; i < 20_000; i += 1) customerKeyOf(`bulk-${i}`);
    for (const i of [0, 16_383, 16_384, 19_999]) expect(customerKeyOf(`bulk-${i}`)).toBe(sha256(`bulk-${i}`));
  });
});
