import { describe, expect, it } from 'vitest';
import { assignArm } from '../../../src/experiments/assign-arm.js';

describe('assignArm', () => {
  it('gives a payment the same arm every time', () => {
    for (const id of ['pay_9f21', 'pay_1', 'ünïcødé-payment', '']) {
      const first = assignArm(id, 20);
      for (let attempt = 0; attempt < 5; attempt += 1) expect(assignArm(id, 20)).toBe(first);
    }
  });

  it('computes djb2 modulo 100 as the peer does', () => {
    // djb2("a") = 5381·33 + 97 = 177670 → 70: variant below a split of 71, control at 70.
    expect(assignArm('a', 71)).toBe('variant');
    expect(assignArm('a', 70)).toBe('control');
  });

  it('wraps djb2 at 64 bits as the peer does, over long ids and UTF-8 bytes alike', () => {
    // The peer's hash, in BigInt: h = h · 33 + byte (mod 2^64) from 5381; the arm is h mod 100 against the split.
    const reference = (id: string): number => {
      let hash = 5381n;
      for (const byte of new TextEncoder().encode(id)) hash = (hash * 33n + BigInt(byte)) & 0xffff_ffff_ffff_ffffn;
      return Number(hash % 100n);
    };
    const ids = ['pay_9f21', 'ünïcødé-payment', '支付-0042', 'x'.repeat(200), 'pay_\u{1F4B3}_card', ''];
    for (let index = 0; index < 300; index += 1) ids.push(`pi_${(index * 2654435761).toString(36)}_${'z'.repeat(index % 40)}`);
    for (const id of ids) {
      const bucket = reference(id);
      expect(assignArm(id, bucket + 1), id).toBe('variant');
      expect(assignArm(id, bucket), id).toBe('control');
    }
  });

  it('sends the split share of many payments to the variant, within tolerance', () => {
    for (const split of [1, 10, 20, 49]) {
      let variant = 0;
      const total = 20_000;
      for (let index = 0; index < total; index += 1) if (assignArm(`pay_${index.toString(36)}_${(index * 7919) % 1000}`, split) === 'variant') variant += 1;
      expect(Math.abs(variant / total - split / 100)).toBeLessThan(0.01);
    }
  });
});
