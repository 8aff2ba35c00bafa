import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../src/generation/errors/provider-errors.js';
import { parseTimeout } from '../../../src/generation/parse-timeout.js';

describe('parseTimeout', () => {
  it.each([
    [5000, 5000],
    ['5000', 5000],
    ['250ms', 250],
    ['30s', 30_000],
    ['1.5s', 1500],
    ['2m', 120_000],
    ['0.5m', 30_000],
    ['1h', 3_600_000],
    ['0.5h', 1_800_000],
    [' 30s ', 30_000],
  ] as const)('turns %j into %d ms', (value, expected) => {
    expect(parseTimeout(value)).toBe(expected);
  });

  it.each(['abc', '5 min', '30S', '1.5.2s', '-1', '', 's', '10d', 0, -5, Number.NaN, Infinity, '25h'] as const)('rejects %j naming the option', (value) => {
    let caught: unknown;
    try {
      parseTimeout(value);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidRequestError);
    expect((caught as InvalidRequestError).option).toBe('timeout');
    expect((caught as InvalidRequestError).isRetryable).toBe(false);
  });

  it('names a nested option when told which one', () => {
    expect(() => parseTimeout('soon', 'evaluation.timeout')).toThrow(/evaluation\.timeout must/);
  });
});
