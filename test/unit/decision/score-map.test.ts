import { describe, expect, it } from 'vitest';
import { scoreMapOf } from '../../../src/decision/score-map.js';

describe('scoreMapOf', () => {
  it('maps each gateway to its score in candidate order, numeric names included', () => {
    const map = scoreMapOf(['stripe', 'adyen', 'checkout'], [0.97, 0.99, 0.95]);
    expect(Object.keys(map)).toEqual(['stripe', 'adyen', 'checkout']);
    expect(JSON.stringify(map)).toBe('{"stripe":0.97,"adyen":0.99,"checkout":0.95}');
    // Integer-like names enumerate first in any JS object; the same as the literal the wire had.
    expect(JSON.stringify(scoreMapOf(['stripe', '42'], [0.5, 0.6]))).toBe(JSON.stringify({ stripe: 0.5, 42: 0.6 }));
  });

  it('holds gateways named like Object.prototype members as own data properties', () => {
    const map = scoreMapOf(['__proto__', 'constructor', 'toString'], [0.9, 0.8, 0.7]);
    expect(Object.keys(map)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getOwnPropertyDescriptor(map, '__proto__')).toEqual({ value: 0.9, enumerable: true, writable: true, configurable: true });
    expect(map.constructor).toBe(0.8);
    expect(JSON.stringify(map)).toBe('{"__proto__":0.9,"constructor":0.8,"toString":0.7}');
  });

  it('finds nothing for an absent gateway, whatever its name', () => {
    const map = scoreMapOf(['stripe'], [0.9]);
    for (const name of ['adyen', 'toString', 'hasOwnProperty', '__proto__', 'constructor', 'valueOf']) {
      expect(map[name]).toBeUndefined();
      expect(name in map).toBe(false);
    }
  });
});
