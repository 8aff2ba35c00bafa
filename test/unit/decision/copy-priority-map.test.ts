import { describe, expect, it } from 'vitest';
import { copyPriorityMap } from '../../../src/decision/copy-priority-map.js';

/** A map as the decision builds it: on a null prototype, in candidate order. */
function decisionMap(entries: readonly (readonly [string, number])[]): Record<string, number> {
  const map = Object.create(null) as Record<string, number>;
  for (const [gateway, score] of entries) map[gateway] = score;
  return map;
}

describe('copyPriorityMap', () => {
  it('copies like a spread: same keys in the same order, on a plain object', () => {
    const map = decisionMap([
      ['stripe', 0.97],
      ['adyen', 0.99],
      ['42', 0.5],
      ['checkout', 0.95],
    ]);
    const copy = copyPriorityMap(map);
    expect(Object.keys(copy)).toEqual(Object.keys({ ...map }));
    expect(copy).toEqual({ ...map });
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe(JSON.stringify({ ...map }));
  });

  it('keeps gateways named like Object.prototype members as own data properties', () => {
    const map = decisionMap([
      ['__proto__', 0.9],
      ['constructor', 0.8],
      ['toString', 0.7],
    ]);
    const copy = copyPriorityMap(map);
    expect(Object.keys(copy)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')).toEqual({ value: 0.9, enumerable: true, writable: true, configurable: true });
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe(JSON.stringify({ ...map }));
  });
});
