import { describe, expect, it } from 'vitest';
import { uuidV7 } from '../../../src/events/uuid-v7.js';

const shape = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisOf = (id: string): number => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);

describe('uuidV7', () => {
  it('is a version 7, RFC 9562 variant UUID carrying its millisecond in the first 48 bits', () => {
    // Increasing, and past 32 bits on purpose: the timestamp is written in two parts.
    for (const nowMs of [Date.now() + 86_400_000, 2 ** 47 + 12_345, 2 ** 48 - 2]) {
      const id = uuidV7(nowMs);
      expect(id).toMatch(shape);
      expect(millisOf(id)).toBe(nowMs);
    }
  });

  it('keeps ids of one millisecond (and of a clock that went back) increasing and distinct', () => {
    const nowMs = Date.now();
    const ids = [uuidV7(nowMs), ...Array.from({ length: 999 }, () => uuidV7(nowMs)), uuidV7(nowMs - 5)];
    for (const id of ids) expect(id).toMatch(shape);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
