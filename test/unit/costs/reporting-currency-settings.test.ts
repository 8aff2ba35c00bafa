import { describe, expect, it } from 'vitest';
import { reportingCurrencyOf } from '../../../src/costs/reporting-currency-settings.js';

const problem = (input: Parameters<typeof reportingCurrencyOf>[0]) => {
  const read = reportingCurrencyOf(input);
  return read.ok ? undefined : read.problem;
};

describe('reportingCurrencyOf', () => {
  it('stores codes upper case with their rates and dates', () => {
    expect(reportingCurrencyOf({ currency: 'usd', rates: [{ currency: 'eur', rate: 1.08, asOf: '2026-11-27' }] })).toEqual({
      ok: true,
      setting: { currency: 'USD', rates: [{ currency: 'EUR', rate: 1.08, asOf: '2026-11-27' }] },
    });
  });

  it('refuses unknown currency codes, naming the field', () => {
    expect(problem({ currency: 'DOLLARS', rates: [] })).toBe("currency: 'DOLLARS' is not an ISO 4217 currency code");
    expect(problem({ currency: 'USD', rates: [{ currency: 'EUX', rate: 1, asOf: '2026-11-27' }] })).toBe(
      "rates[0].currency: 'EUX' is not an ISO 4217 currency code",
    );
    expect(problem({ currency: null, rates: [] })).toMatch(/^currency: give the reporting currency/);
  });

  it('refuses a listed currency without a rate, and a rate not above 0', () => {
    expect(problem({ currency: 'USD', rates: [{ currency: 'EUR', asOf: '2026-11-27' }] })).toBe(
      'rates[0].rate: no rate for EUR: give what 1 EUR is worth in USD, above 0',
    );
    expect(problem({ currency: 'USD', rates: [{ currency: 'EUR', rate: 0, asOf: '2026-11-27' }] })).toBe(
      'rates[0].rate: the rate for EUR must be above 0 (got 0)',
    );
    expect(problem({ currency: 'USD', rates: [{ currency: 'EUR', rate: -1.2, asOf: '2026-11-27' }] })).toBe(
      'rates[0].rate: the rate for EUR must be above 0 (got -1.2)',
    );
  });

  it('refuses duplicates, a rate for the reporting currency itself and dates that are not calendar dates', () => {
    const eur = { currency: 'EUR', rate: 1.08, asOf: '2026-11-27' };
    expect(problem({ currency: 'USD', rates: [eur, { ...eur, currency: 'eur' }] })).toBe('rates[1]: EUR is listed twice; give one rate per currency');
    expect(problem({ currency: 'USD', rates: [{ ...eur, currency: 'USD' }] })).toMatch(/^rates\[0\]: USD is the reporting currency itself/);
    expect(problem({ currency: 'USD', rates: [{ ...eur, asOf: '2026-02-30' }] })).toBe("rates[0].as_of: '2026-02-30' is not a date (YYYY-MM-DD)");
    expect(problem({ currency: 'USD', rates: [{ ...eur, asOf: '27/11/2026' }] })).toBe("rates[0].as_of: '27/11/2026' is not a date (YYYY-MM-DD)");
  });
});
