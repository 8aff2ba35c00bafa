import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../src/decision/sticky/sha256-hex.js';
import { createSeededRandom } from '../../../helpers/seeded-random.js';

describe('sha256Hex', () => {
  it('gives the FIPS 180-4 example digests', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it('agrees with node:crypto at every padding boundary (one and two blocks, and more)', () => {
    for (let length = 0; length <= 200; length++) {
      const text = 'x'.repeat(length);
      expect(sha256Hex(text), `length ${length}`).toBe(hash('sha256', text));
    }
  });

  it('hashes the UTF-8 bytes: two-, three- and four-byte characters, and lone surrogates as U+FFFD', () => {
    for (const text of ['é', 'naïve café', '日本語の顧客', '😀 cust', 'a\ud83d', '\udc00b', '\ud800\ud800', `${'x'.repeat(54)}😀`]) {
      expect(sha256Hex(text), JSON.stringify(text)).toBe(hash('sha256', text));
    }
  });

  it('agrees with node:crypto on random strings, and after a text longer than its kept buffer', () => {
    const source = createSeededRandom(36);
    const random = () => source.next();
    for (let i = 0; i < 2000; i++) {
      let text = '';
      const length = Math.floor(random() * 300);
      for (let j = 0; j < length; j++) {
        text += String.fromCharCode(random() < 0.8 ? 32 + Math.floor(random() * 95) : Math.floor(random() * 0x10000));
      }
      expect(sha256Hex(text), JSON.stringify(text)).toBe(hash('sha256', text));
    }
    const long = 'é'.repeat(100_000);
    expect(sha256Hex(long)).toBe(hash('sha256', long));
    expect(sha256Hex('cust_1')).toBe(hash('sha256', 'cust_1'));
  });
});
