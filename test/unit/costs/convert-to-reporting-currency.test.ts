import { describe, expect, it } from 'vitest';
import { convertToReportingCurrency, type CurrencySavings } from '../../../src/costs/convert-to-reporting-currency.js';
import { decimalOf, multiply, numberOf, roundTo } from '../../../src/costs/decimal-amount.js';

const savings = (currency: string, savedValue: number, netValue: number, values: Partial<CurrencySavings> = {}): CurrencySavings => ({
  currency,
  savedValue,
  netValue,
  approvalsLost: 0.25,
  costWon: 2,
  decisions: 4,
  ...values,
});

const setting = {
  currency: 'USD',
  rates: [
    { currency: 'EUR', rate: 1.0842, asOf: '2026-11-27' },
    { currency: 'JPY', rate: 0.0067, asOf: '2026-11-25' },
    { currency: 'KWD', rate: 3.2551, asOf: '2026-11-28' },
  ],
};

describe('decimal amounts', () => {
  it('reads a rate as the decimal it was written as, exponent forms included', () => {
    expect(decimalOf(1.0842)).toEqual({ digits: 10842n, scale: 4 });
    expect(decimalOf(1e-7)).toEqual({ digits: 1n, scale: 7 });
    expect(decimalOf(2.5e3)).toEqual({ digits: 2500n, scale: 0 });
    expect(decimalOf(-0.5)).toEqual({ digits: -5n, scale: 1 });
  });

  it('drops the noise of a float sum at 15 significant digits', () => {
    const sum = 0.1 + 0.2; // 0.30000000000000004
    expect(roundTo(decimalOf(sum, 15), 15)).toBe(300_000_000_000_000n);
  });

  it('rounds half away from zero, losses as gains', () => {
    expect(roundTo({ digits: 1005n, scale: 3 }, 2)).toBe(101n);
    expect(roundTo({ digits: -1005n, scale: 3 }, 2)).toBe(-101n);
    expect(roundTo({ digits: 1004n, scale: 3 }, 2)).toBe(100n);
    expect(roundTo(multiply(decimalOf(3), decimalOf(1.5)), 0)).toBe(5n);
  });

  it('writes minor units back as the exact decimal', () => {
    expect(numberOf(12_345n, 2)).toBe(123.45);
    expect(numberOf(-5n, 2)).toBe(-0.05);
    expect(numberOf(7n, 0)).toBe(7);
    expect(numberOf(1n, 3)).toBe(0.001);
  });
});

describe('convertToReportingCurrency', () => {
  it('converts each currency at its rate, rounds each line once to the reporting minor unit, and totals the lines exactly', () => {
    const result = convertToReportingCurrency([savings('EUR', 10.01, -3.335), savings('USD', 0.1 + 0.2, 0.3), savings('JPY', 1234, 1000)], setting);
    // EUR: 10.01 × 1.0842 = 10.852842 → 10.85; −3.335 × 1.0842 = −3.615807 → −3.62. JPY: 1234 × 0.0067 = 8.2678 → 8.27; 1000 × 0.0067 = 6.70.
    expect(result.converted).toEqual([
      {
        currency: 'EUR',
        rate: 1.0842,
        asOf: '2026-11-27',
        savedValue: 10.01,
        netValue: -3.335,
        savedValueConverted: 10.85,
        netValueConverted: -3.62,
        costWon: 2,
      },
      { currency: 'JPY', rate: 0.0067, asOf: '2026-11-25', savedValue: 1234, netValue: 1000, savedValueConverted: 8.27, netValueConverted: 6.7, costWon: 2 },
      { currency: 'USD', rate: 1, asOf: null, savedValue: 0.1 + 0.2, netValue: 0.3, savedValueConverted: 0.3, netValueConverted: 0.3, costWon: 2 },
    ]);
    // 10.85 + 8.27 + 0.30 and −3.62 + 6.70 + 0.30, with no float drift (a float sum gives 19.419999999999998).
    expect(result.totals).toEqual({ savedValue: 19.42, netValue: 3.38, approvalsLost: 0.75, costWon: 6, decisions: 12 });
    expect(result.ratesAsOf).toBe('2026-11-25');
    expect(result.unconverted).toEqual([]);
  });

  it('lists a currency without a rate apart, in its own money, and leaves it out of the totals', () => {
    const gbp = savings('GBP', 50, 40);
    const blank = savings('', 1, 1);
    const result = convertToReportingCurrency([savings('EUR', 1, 1), gbp, blank], setting);
    expect(result.unconverted).toEqual([blank, gbp]);
    expect(result.converted.map((line) => line.currency)).toEqual(['EUR']);
    expect(result.totals).toEqual({ savedValue: 1.08, netValue: 1.08, approvalsLost: 0.25, costWon: 2, decisions: 4 });
    expect(result.ratesAsOf).toBe('2026-11-27');
  });

  it('rounds to the reporting currency’s own minor unit (0 for JPY, 3 for KWD)', () => {
    const toJpy = convertToReportingCurrency([savings('USD', 10.55, 10.55)], {
      currency: 'JPY',
      rates: [{ currency: 'USD', rate: 149.5, asOf: '2026-11-28' }],
    });
    expect(toJpy.totals.savedValue).toBe(1577); // 1577.225
    const toKwd = convertToReportingCurrency([savings('USD', 10, 10)], { currency: 'KWD', rates: [{ currency: 'USD', rate: 0.30721, asOf: '2026-11-28' }] });
    expect(toKwd.totals.savedValue).toBe(3.072); // 3.0721
  });

  it('needs no rate, and names no date, when every saving is already in the reporting currency', () => {
    const result = convertToReportingCurrency([savings('USD', 2, 1)], { currency: 'USD', rates: [] });
    expect(result.ratesAsOf).toBeNull();
    expect(result.totals.savedValue).toBe(2);
  });

  it('keeps a sum of many lines exact where a float sum drifts', () => {
    const lines = Array.from({ length: 1000 }, (_, index) => savings(`C${index}`, 0.1, 0.1));
    const rates = lines.map((line) => ({ currency: line.currency, rate: 1, asOf: '2026-11-28' }));
    const result = convertToReportingCurrency(lines, { currency: 'USD', rates });
    expect(lines.reduce((sum, line) => sum + line.savedValue, 0)).not.toBe(100);
    expect(result.totals.savedValue).toBe(100);
  });
});
